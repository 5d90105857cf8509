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
