# Nonholonomic systems with impacts (core/nonholonomic): the LDAP collision integrator of P000,
# pendulum-cylinder, disk-wall, disk-table (docs/nonholonomic-vci.md, docs/acceptance.md).
ricochet_add_test(NAME test_nonholonomic_disk SOURCES test_nonholonomic_disk.cpp LABELS core TIMEOUT 300)
ricochet_add_test(NAME test_nonholonomic_ldap SOURCES test_nonholonomic_ldap.cpp LABELS core TIMEOUT 300)
ricochet_add_test(NAME test_nonholonomic_pendulum SOURCES test_nonholonomic_pendulum.cpp LABELS core TIMEOUT 300)
ricochet_add_test(NAME test_nonholonomic_systems SOURCES test_nonholonomic_systems.cpp LABELS core TIMEOUT 300)
