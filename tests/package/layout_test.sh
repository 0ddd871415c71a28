#!/usr/bin/env bash
# The unpacked package: every file in a Debian place, the files that must be there, and the control
# data a Debian machine relies on (Depends from shlibdeps, conffiles, maintainer scripts).
set -euo pipefail
root="$1/root" control="$1/control"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# No file outside the Debian layout.
allowed='^\./(usr/sbin|usr/bin|usr/lib/systemd/system|usr/lib/udev/rules\.d|usr/lib/sysusers\.d|usr/lib/tmpfiles\.d|usr/share/man/man[158]|usr/share/doc/cardtable|usr/share/cardtable|usr/lib/[a-z0-9_]+-linux-gnu[a-z0-9_]*/cardtable|etc/default)/'
while IFS= read -r f; do
  [[ "$f" =~ $allowed ]] || bad "outside the Debian layout: $f"
done < <(cd "$root" && find . \( -type f -o -type l \) | sort)

for f in usr/sbin/cardtabled usr/bin/cardtablectl usr/sbin/cardtable-hub usr/bin/cardtable-console; do
  [ -x "$root/$f" ] || bad "missing executable $f"
done
for f in usr/lib/systemd/system/cardtabled.service usr/lib/systemd/system/cardtabled@.service \
         usr/lib/systemd/system/cardtable-hub.service usr/lib/udev/rules.d/70-cardtable.rules \
         usr/lib/sysusers.d/cardtable.conf usr/lib/tmpfiles.d/cardtable.conf etc/default/cardtable-hub \
         usr/share/man/man8/cardtabled.8.gz usr/share/man/man8/cardtable-hub.8.gz usr/share/man/man1/cardtablectl.1.gz usr/share/man/man1/cardtable-console.1.gz \
         usr/share/man/man5/cardtabled.conf.5.gz usr/share/doc/cardtable/copyright usr/share/doc/cardtable/changelog.Debian.gz \
         usr/share/doc/cardtable/operations.md usr/share/cardtable/cardtabled.conf usr/share/cardtable/cardtable-hub.conf \
         usr/share/cardtable/sample/demo-table.scn usr/share/cardtable/sample/sample-pairs.pbn; do
  [ -f "$root/$f" ] || bad "missing $f"
done
# A package built with vision/ (it ships the model) has the camera driver's plug-in, a plain shared object.
if [ -f "$root/usr/share/cardtable/vision/model.json" ]; then
  plugin=$(cd "$root" && find usr/lib -name cardtable-camera.so -path '*/cardtable/*' | head -1)
  if [ -z "$plugin" ]; then bad "missing the camera plug-in usr/lib/<multiarch>/cardtable/cardtable-camera.so"
  else
    [ ! -x "$root/$plugin" ] || bad "$plugin is executable (a shared object is 0644)"
    readelf -h "$root/$plugin" 2>/dev/null | grep -q 'Type: *DYN' || bad "$plugin is no shared object"
  fi
  # Every network model.json names is shipped beside it (the recogniser refuses to start without one).
  for onnx in $(sed -n 's/.*"onnx": *"\([^"]*\)".*/\1/p' "$root/usr/share/cardtable/vision/model.json"); do
    [ -f "$root/usr/share/cardtable/vision/$onnx" ] || bad "model.json names $onnx, which is not in usr/share/cardtable/vision"
  done
fi
# The example in /usr/share/doc is the file the postinst copies.
[ "$(readlink -f "$root/usr/share/doc/cardtable/examples/cardtabled.conf")" = "$(readlink -f "$root/usr/share/cardtable/cardtabled.conf")" ] ||
  bad "usr/share/doc/cardtable/examples/cardtabled.conf does not lead to usr/share/cardtable/cardtabled.conf"
# Every program a unit starts is in the package.
for unit in "$root"/usr/lib/systemd/system/*.service; do
  exe=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$unit")
  [ -x "$root$exe" ] || bad "$(basename "$unit"): ExecStart=$exe is not in the package"
done

# Depends: from dpkg-shlibdeps, so the libraries the binaries link are named with their versions.
depends=$(sed -n 's/^Depends: //p' "$control/control")
echo "Depends: $depends"
for lib in libc6 libzmq5 libsystemd0 libboost-program-options libdds systemd; do
  [[ "$depends" == *"$lib"* ]] || bad "Depends lacks $lib"
done
[[ "$depends" == *"("* ]] || bad "Depends has no versions: not from shlibdeps"
grep -qx /etc/default/cardtable-hub "$control/conffiles" || bad "conffiles lacks /etc/default/cardtable-hub"
for s in postinst prerm postrm; do
  [ -x "$control/$s" ] || bad "no executable maintainer script $s"
  sh -n "$control/$s" || bad "$s: not valid sh"
done
grep -q 'systemd-sysusers' "$control/postinst" || bad "postinst does not create the user"
grep -q 'udevadm control --reload' "$control/postinst" || bad "postinst does not reload udev"
grep -q 'daemon-reload' "$control/postinst" || bad "postinst does not reload systemd"
grep -q '\[ ! -e /etc/cardtable/cardtabled.conf \]' "$control/postinst" || bad "postinst may overwrite the config"
# operations.md names one deck folder, the one tmpfiles.conf makes (it said /var/lib/cardtable/decks once).
for d in $(grep -o '/[a-z/]*/decks\b' "$root/usr/share/doc/cardtable/operations.md" | sort -u); do
  grep -q "^d $d " "$root/usr/lib/tmpfiles.d/cardtable.conf" || bad "operations.md names $d, which tmpfiles.conf does not make"
done
# The udev rules name the supported readers and give them to the daemon's group.
grep -q 'ATTR{idVendor}=="072f", ATTR{idProduct}=="2200"' "$root/usr/lib/udev/rules.d/70-cardtable.rules" || bad "no ACR122U rule"
grep -q 'GROUP="cardtable"' "$root/usr/lib/udev/rules.d/70-cardtable.rules" || bad "the readers are not the daemon's group's"

[ $fail -eq 0 ] && echo "layout: $(cd "$root" && find . -type f | wc -l) files, all in the Debian layout"
exit $fail
