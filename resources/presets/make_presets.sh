#!/bin/sh
# Regenerates the paper presets in this directory with `ricochet-cli scenario`, which validates
# each one (ranges, admissible initial state) and writes it with core/io's serializer (canonical
# key order, shortest round-trip numbers).
#   resources/presets/make_presets.sh [RICOCHET_CLI [OUTPUT_DIR]]
# (defaults: build/bin/ricochet-cli, this directory). Each file is described in README.md here
# (the scenario format has no description key): add a row there for a new file.
set -eu
cli=${1:-build/bin/ricochet-cli}
dir=${2:-$(dirname "$0")}
p() { out=$1; shift; "$cli" scenario "$@" --out "$dir/$out"; }

# 004 (FMOW, SIADS 2003)
p 004-particle-floor.json particle-floor
p 004-particle-floor-1000-impacts.json particle-floor --h 0.01 --t-end 903.5
p 004-star-floor.json star-floor
p 004-star-floor-1500-impacts.json star-floor --h 0.005 --t-end 1485
# Restitution (docs/restitution.md): the bouncing ball of spec R1, Siconos' BouncingBallED
# reference (a ball 1 m above the floor, e = 0.9, g = 9.81), then at rest on the floor.
p rst-particle-floor-bouncing-ball.json particle-floor --set g=9.81 --set restitution=0.9 --set vx0=0 --t-end 20
# 000 (Rodriguez Abella, Colombo)
p 000-ellipse-floor-25s.json ellipse-floor
p 000-ellipse-floor-2s.json ellipse-floor --t-end 2
p 000-pendulum-cylinder-h1e-3-5s.json pendulum-cylinder
p 000-pendulum-cylinder-h1e-4-100s.json pendulum-cylinder --h 1e-4 --t-end 100
# 001 (Rodriguez Abella, Colombo): spec tests E1, E2
p 001-disk-wall-e2-oblique.json disk-wall
p 001-disk-wall-e1-orthogonal.json disk-wall --set phi0=1.5707963267948966 --set u0=1 --set w0=0 --t-end 20
# 002 (Anahory Simoes, Colombo): spec tests F1, F2
p 002-disk-table-100s.json disk-table
p 002-disk-table-1000s.json disk-table --t-end 1000
# 003 (Tran, Leok): Table 3 cases I-IV, 1e5-step runs, cube sensitivity (paper 7.4 item 4)
p 003-ellipsoid-plane-case-I.json ellipsoid-plane
p 003-ellipsoid-plane-case-I-1e5-steps.json ellipsoid-plane --t-end 1000
p 003-ellipsoid-tilted-case-II.json ellipsoid-tilted
p 003-ellipsoid-tilted-case-II-1e5-steps.json ellipsoid-tilted --t-end 1000
p 003-ellipsoids-union-case-III.json ellipsoids-union
p 003-ellipsoids-union-case-III-1e5-steps.json ellipsoids-union --t-end 1000
p 003-cube-plane-case-IV.json cube-plane
p 003-cube-plane-case-IV-1e5-steps.json cube-plane --t-end 1000
p 003-cube-plane-sensitivity-position.json cube-plane --set z0=10.00000001
p 003-cube-plane-sensitivity-attitude.json cube-plane --set ry0=3.141592653589793e-8
# rigid-body (the LGVCI of 003 with your own body): its default (003's cube), then bodies given
# as shapes in a scenario file written here, each canonicalised by `ricochet-cli scenario`.
p 003-rigid-body-cube.json rigid-body
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
body() {  # body OUT SYSTEM-FREE-JSON-BODY-AND-WORLD ...: a rigid-body scenario from its parts
  out=$1; shift
  printf '{"format": "ricochet-scenario", "version": 1, "system": "rigid-body", %s}\n' "$*" > "$tmp/in.json"
  p "$out" "$tmp/in.json"
}
# Points of a polygon of N corners and radius R at height Z, as JSON [x, y, z] items.
ring() { awk -v n="$1" -v r="$2" -v z="$3" 'BEGIN { pi = atan2(0, -1); for (i = 0; i < n; i++)
  printf "%s[%.17g, %.17g, %s]", (i ? ", " : ""), r * cos(2 * pi * i / n), r * sin(2 * pi * i / n), z }'; }
# A seeded random point cloud (Park-Miller's generator, exact in awk's doubles): N points in the
# ellipsoidal shell 0.6..1 of semi-axes (A, B, C), 6 digits each.
cloud() { awk -v n="$1" -v a="$2" -v b="$3" -v c="$4" 'BEGIN { s = 20261125
  for (i = 0; i < n; i++) { do { for (k = 0; k < 3; k++) { s = (16807 * s) % 2147483647; u[k] = 2 * s / 2147483647 - 1 }
    q = u[0] * u[0] + u[1] * u[1] + u[2] * u[2] } while (q > 1 || q < 0.36)
    printf "%s[%.6f, %.6f, %.6f]", (i ? ", " : ""), a * u[0], b * u[1], c * u[2] } }'; }
body 003-rigid-body-die-in-a-box.json \
  '"parameters": {"epsilon": 0.08}, "body": {"shape": "box", "size": [1, 1, 1], "density": 1100},' \
  '"world": {"box": {"size": [4, 3]}},' \
  '"initial": {"z0": 3, "vx0": 4, "vy0": 2.5, "vz0": 2, "Pi1_0": 2, "Pi2_0": -3.5, "Pi3_0": 1.5},' \
  '"integrator": {"name": "variational", "h": 0.002, "tolerance": 1e-15}, "t_end": 8'
body 003-rigid-body-coin.json \
  '"body": {"shape": "polyhedron", "epsilon": 0.0005, "density": 8900, "vertices": ['"$(ring 32 0.0125 -0.0005)"', '"$(ring 32 0.0125 0.0005)"']},' \
  '"initial": {"z0": 0.05, "vx0": 0.1, "vz0": 0, "Pi1_0": 1e-6, "Pi2_0": 0, "Pi3_0": 2e-5, "rx0": 1.2},' \
  '"integrator": {"name": "variational", "h": 0.0005, "tolerance": 1e-15}, "t_end": 3'
body 003-rigid-body-dumbbell.json \
  '"body": {"shape": "union", "density": 7800, "parts": [' \
  '{"shape": "ellipsoid", "axes": [0.05, 0.05, 0.05], "position": [-0.2, 0, 0], "rotation": [0, 0, 0]},' \
  '{"shape": "ellipsoid", "axes": [0.05, 0.05, 0.05], "position": [0.2, 0, 0], "rotation": [0, 0, 0]},' \
  '{"shape": "box", "size": [0.28, 0.025, 0.025], "epsilon": 0.005, "position": [0, 0, 0], "rotation": [0, 0, 0]}]},' \
  '"initial": {"z0": 1, "vx0": 0.5, "vy0": 0, "vz0": 2, "Pi1_0": 0.5, "Pi2_0": 1.5, "Pi3_0": 0.3},' \
  '"integrator": {"name": "variational", "h": 0.002, "tolerance": 1e-15}, "t_end": 6'
body 003-rigid-body-rock.json \
  '"body": {"shape": "polyhedron", "epsilon": 0.002, "density": 2700, "vertices": ['"$(cloud 40 0.3 0.22 0.15)"']},' \
  '"world": {"box": {"size": [2.5, 2, 3]}},' \
  '"initial": {"z0": 1.5, "vx0": 3, "vy0": -2, "vz0": 2, "Pi1_0": 5, "Pi2_0": -8, "Pi3_0": 3},' \
  '"integrator": {"name": "variational", "h": 0.002, "tolerance": 1e-15}, "t_end": 10'

# Several bodies (docs/multibody.md): the cases with known answers of the bodies engine (spec ids
# M1-M11), then worlds to watch; `rst-bodies-*` are bodies with restitution (docs/restitution.md).
world() {  # world OUT JSON...: a bodies scenario from its parts
  out=$1; shift
  printf '{"format": "ricochet-scenario", "version": 1, "system": "bodies", %s}\n' "$*" > "$tmp/in.json"
  p "$out" "$tmp/in.json"
}
ball() { printf '{"name": "%s", "body": {"shape": "sphere", "radius": 0.5}, "m": 1, "position": [%s], "velocity": [%s]}' "$1" "$2" "$3"; }
free='"parameters": {"g": 0}, "world": {"ground": false}'
fine='"integrator": {"name": "variational", "h": 0.01, "tolerance": 1e-15}'
# Two spheres head-on, m = (1, 3), v = (1, -1) (M1; the contract's example).
world mbd-bodies-two-spheres.json "$free"', "bodies": [{"name": "cue", "body": {"shape": "sphere", "radius": 0.5}, "m": 1, "position": [-4, 0, 0], "velocity": [1, 0, 0]}, {"name": "b1", "body": {"shape": "sphere", "radius": 0.5}, "m": 3, "position": [0, 0, 0], "velocity": [-1, 0, 0]}], "t_end": 10'
# Newton's cradle: five balls in a line, IN of them moving at 1 m/s, with gaps GAP between them.
cradle() { awk -v in_="$1" -v gap="$2" 'BEGIN { for (i = 0; i < 5; i++)
  printf "%s{\"name\": \"b%d\", \"body\": {\"shape\": \"sphere\", \"radius\": 0.5}, \"m\": 1, \"position\": [%.17g, 0, 0], \"velocity\": [%d, 0, 0]}",
    (i ? ", " : ""), i, i * (1 + gap), (i < in_ ? 1 : 0) }'; }
world mbd-bodies-cradle-gaps.json "$free"', "bodies": ['"$(cradle 1 0.001)"'], '"$fine"', "t_end": 10'
world mbd-bodies-cradle-touching-1-in.json "$free"', "bodies": ['"$(cradle 1 0)"'], '"$fine"', "t_end": 10'
world mbd-bodies-cradle-touching-2-in.json "$free"', "bodies": ['"$(cradle 2 0)"'], '"$fine"', "t_end": 10'
world mbd-bodies-cradle-touching-3-in.json "$free"', "bodies": ['"$(cradle 3 0)"'], '"$fine"', "t_end": 10'
world rst-bodies-cradle-e098.json '"parameters": {"g": 0, "restitution": 0.98}, "world": {"ground": false}, "bodies": ['"$(cradle 1 0)"'], '"$fine"', "t_end": 10'
# Three in a line (M5) and Bernoulli's problem (M6).
world mbd-bodies-three-in-a-line.json "$free"', "bodies": ['"$(ball b0 '-2, 0, 0' '2, 0, 0'), $(ball b1 '0, 0, 0' '0, 0, 0'), $(ball b2 '2, 0, 0' '-2, 0, 0')"'], '"$fine"', "t_end": 5'
world mbd-bodies-bernoulli.json "$free"', "bodies": ['"$(ball b1 '-2, 0, 0' '2, 0, 0'), $(ball b2 '0, 0.5, 0' '0, 0, 0'), $(ball b3 '0, -0.5, 0' '0, 0, 0')"'], '"$fine"', "t_end": 5'
# The break: a cue ball into a 15-ball triangle rack of touching balls (M10).
rack=$(awk 'BEGIN { n = 0; for (k = 0; k < 5; k++) for (j = 0; j <= k; j++) {
  printf ", {\"name\": \"r%d\", \"body\": {\"shape\": \"sphere\", \"radius\": 0.5}, \"m\": 1, \"position\": [%.17g, %.17g, 0], \"velocity\": [0, 0, 0]}",
    n++, k * sqrt(3) / 2, -k / 2 + j } }')
world mbd-bodies-break.json "$free"', "bodies": ['"$(ball cue '-4, 0, 0' '1, 0, 0')$rack"'], '"$fine"', "t_end": 12'
# The defaults: the stack drop (M11), a light ball resting on a heavy one, dropped from 1 m.
p mbd-bodies-stack-drop.json bodies
# Gases: N balls on a lattice in a closed box, seeded random velocities, no gravity (M13).
gas() { awk -v side="$1" -v r="$2" -v pitch="$3" 'BEGIN { s = 20261128; n = 0; off = (side - 1) * pitch / 2
  for (i = 0; i < side; i++) for (j = 0; j < side; j++) for (k = 0; k < side; k++) {
    for (c = 0; c < 3; c++) { s = (16807 * s) % 2147483647; v[c] = 4 * s / 2147483647 - 2 }
    printf "%s{\"name\": \"g%d\", \"body\": {\"shape\": \"sphere\", \"radius\": %s}, \"m\": 1, \"position\": [%.6g, %.6g, %.6g], \"velocity\": [%.6f, %.6f, %.6f]}",
      (n ? ", " : ""), n, r, i * pitch - off, j * pitch - off, k * pitch + pitch / 2, v[0], v[1], v[2]; n++ } }'; }
world mbd-bodies-gas-64.json '"parameters": {"g": 0}, "world": {"box": {"size": [8, 8, 8]}}, "bodies": ['"$(gas 4 0.4 2)"'],' \
  '"integrator": {"name": "variational", "h": 0.005, "tolerance": 1e-15}, "t_end": 60'
world mbd-bodies-gas-1000.json '"parameters": {"g": 0}, "world": {"box": {"size": [20, 20, 20]}}, "bodies": ['"$(gas 10 0.4 2)"'],' \
  '"integrator": {"name": "variational", "h": 0.005, "tolerance": 1e-15}, "t_end": 20'
# Twenty dice (unit boxes rounded by 0.08 m, 1100 kg/m^3) thrown into a box of walls.
dice=$(awk 'BEGIN { s = 424242; for (n = 0; n < 20; n++) {
    for (c = 0; c < 6; c++) { s = (16807 * s) % 2147483647; u[c] = 2 * s / 2147483647 - 1 }
    printf "%s{\"name\": \"d%d\", \"body\": {\"shape\": \"box\", \"size\": [1, 1, 1], \"epsilon\": 0.08, \"density\": 1100}, \"position\": [%d, %d, %d], \"velocity\": [%.4f, %.4f, %.4f], \"angular_velocity\": [%.4f, %.4f, %.4f]}",
      (n ? ", " : ""), n, 2 * (n % 4) - 3, 2 * (int(n / 4) % 3) - 2, 1 + 2 * int(n / 12), 3 * u[0], 3 * u[1], 2 * u[2], 4 * u[3], 4 * u[4], 4 * u[5] } }')
world mbd-bodies-20-dice.json '"world": {"box": {"size": [9, 7]}}, "bodies": ['"$dice"'],' \
  '"integrator": {"name": "variational", "h": 0.002, "tolerance": 1e-15}, "t_end": 8'
# A ball falling through rows of fixed pegs (a Galton board in a slot: walls at y = +-0.3).
pegs=$(awk 'BEGIN { n = 0; for (row = 0; row < 5; row++) for (j = 0; j < 6 - row % 2; j++)
  printf ", {\"name\": \"peg%d\", \"fixed\": true, \"body\": {\"shape\": \"sphere\", \"radius\": 0.1}, \"position\": [%.6g, 0, %.6g]}",
    n++, (j - 2.5 + (row % 2) / 2) * 0.6, 3.5 - 0.5 * row }')
world mbd-bodies-pegs.json '"world": {"box": {"size": [4, 0.6]}}, "bodies": [{"name": "ball", "body": {"shape": "sphere", "radius": 0.15}, "m": 0.1, "position": [0.05, 0, 4.5]}'"$pegs"'],' \
  '"integrator": {"name": "variational", "h": 0.001, "tolerance": 1e-15}, "t_end": 10'
# One die thrown into a box of walls with e = 0.7: it settles on a face (frictionless: it may
# still slide and turn about the vertical).
world rst-bodies-die-in-a-box.json '"parameters": {"restitution": 0.7}, "world": {"box": {"size": [9, 7]}}, "bodies": [{"name": "die", "body": {"shape": "box", "size": [1, 1, 1], "epsilon": 0.08, "density": 1100}, "position": [-1, 0, 2], "velocity": [4, 2.5, 2], "angular_velocity": [2, -3.5, 1.5]}],' \
  '"integrator": {"name": "variational", "h": 0.002, "tolerance": 1e-15}, "t_end": 10'
# A superball: a sphere dropped spinning onto the floor, e = 0.95, until it rests.
world rst-bodies-superball.json '"parameters": {"restitution": 0.95}, "bodies": [{"name": "ball", "body": {"shape": "sphere", "radius": 0.05}, "m": 0.05, "position": [0, 0, 1.05], "velocity": [0.3, 0, 0], "angular_velocity": [0, 0, 20]}],' \
  '"integrator": {"name": "variational", "h": 0.001, "tolerance": 1e-15}, "t_end": 60'
