# core/contact and core/bodies: pair gaps, manifolds, the impact law, and the `bodies` system on
# the cases whose answers are known (docs/multibody.md).
ricochet_add_test(NAME test_contact SOURCES test_contact.cpp LABELS core TIMEOUT 120)
ricochet_add_test(NAME test_bodies SOURCES test_bodies.cpp LABELS core TIMEOUT 300)
# Long runs at CTest's size: random user bodies, a die's energy per impact, 50 spheres in a box.
ricochet_add_test(NAME test_bodies_longrun SOURCES test_bodies_longrun.cpp LABELS core TIMEOUT 900)
