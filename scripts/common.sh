# Shared by scripts/test and scripts/demo: where things are, and the build.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${CARDTABLE_JOBS:-2}"
# The shared real-data corpus sits beside the project in CI (../shared/data/corpus).
corpus="${CARDTABLE_CORPUS:-$root/../shared/data/corpus}"
[ -d "$corpus" ] || corpus=""

configure_and_build() {
  local dir="$1"; shift
  cmake -S "$root" -B "$dir" -DCARDTABLE_CORPUS="$corpus" "$@" >/dev/null
  cmake --build "$dir" -j"$jobs"
}
