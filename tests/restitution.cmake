# Restitution, settling and rest (docs/restitution.md): Newton's law and the held-contact step in
# core/impact, on the planar and the nonholonomic systems.
ricochet_add_test(NAME test_planar_restitution SOURCES test_planar_restitution.cpp LABELS core)
ricochet_add_test(NAME test_nonholonomic_restitution SOURCES test_nonholonomic_restitution.cpp
                  LABELS core)
ricochet_add_test(NAME test_impact_restitution SOURCES test_impact_restitution.cpp LABELS core)
