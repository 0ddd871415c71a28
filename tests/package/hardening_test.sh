#!/usr/bin/env bash
# Every ELF file of the package is built with Debian's hardening flags (dpkg-buildflags, hardening=+all;
# CARDTABLE_HARDENING in CMakeLists.txt): full RELRO (GNU_RELRO and BIND_NOW), position-independent,
# the stack protector (__stack_chk_fail) and FORTIFY (__*_chk), the checks lintian's
# hardening-no-bindnow and hardening-no-fortify-functions make. Read with readelf; hardening-check
# (devscripts) is printed too where it is installed.
set -euo pipefail
root="$1/root"
fail=0
bad() { echo "FAIL: $*"; fail=1; this=1; }
n=0
while IFS= read -r f; do
  readelf -h "$f" >/dev/null 2>&1 || continue
  n=$((n + 1)) this=0
  name=${f#"$root"/}
  dyn=$(readelf -d -W "$f")
  syms=$(readelf --dyn-syms -W "$f")
  grep -q 'GNU_RELRO' <(readelf -l -W "$f") || bad "$name: no RELRO (-Wl,-z,relro)"
  grep -qE '\(FLAGS\).*BIND_NOW|\(FLAGS_1\).*NOW' <<<"$dyn" || bad "$name: no BIND_NOW (-Wl,-z,now)"
  readelf -h "$f" | grep -q 'Type: *DYN' || bad "$name: not position-independent"
  grep -q '__stack_chk_fail' <<<"$syms" || bad "$name: no stack protector (-fstack-protector-strong)"
  grep -qE ' __[a-z_]+_chk(@|$)' <<<"$syms" || bad "$name: no FORTIFY function (-D_FORTIFY_SOURCE=2)"
  [ "$this" = 1 ] || echo "$name: relro, bindnow, pie, stack protector, $(grep -cE ' __[a-z_]+_chk(@|$)' <<<"$syms") fortified functions"
  if command -v hardening-check >/dev/null; then hardening-check "$f" | sed 's/^/  /'; fi
done < <(find "$root/usr/bin" "$root/usr/sbin" "$root/usr/lib" -type f \( -perm -u+x -o -name '*.so' \) | sort)
[ "$n" -gt 0 ] || bad "no ELF file in the package"
exit $fail
