#!/usr/bin/env bash
# The package's maintainer scripts as dpkg runs them on a machine with systemd, against stubs: a scratch
# folder stands for /etc/cardtable, /run/systemd/system and /run/udev (the scripts' paths rewritten into
# it), and systemctl, deb-systemd-helper, deb-systemd-invoke, systemd-sysusers, systemd-tmpfiles and install
# are stubs that log their arguments. deb-systemd-helper's stub keeps its masks, enabled units and state
# files in the scratch folder, and systemctl's reports a running instance cardtabled@t1.service. Nothing of
# this machine is read or changed, so it runs as any user.
set -euo pipefail
control="$1/control"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

mkdir -p "$w/bin" "$w/run/systemd/system" "$w/etc/cardtable" "$w/dsh/masked" "$w/dsh/enabled" "$w/dsh/state"
for c in systemctl deb-systemd-invoke systemd-sysusers systemd-tmpfiles install udevadm; do
  cat >"$w/bin/$c" <<STUB
#!/bin/sh
echo "$c \$*" >>"$w/calls"
case "$c \$*" in "systemctl list-units"*) echo "cardtabled@t1.service loaded active running cardtable daemon for table t1";; esac
exit 0
STUB
done
# deb-systemd-helper: mask/unmask/enable/update-state/was-enabled/debian-installed/purge, as the real one
# behaves for a unit with [Install] (was-enabled is true without a state file).
cat >"$w/bin/deb-systemd-helper" <<STUB
#!/bin/sh
echo "deb-systemd-helper \$*" >>"$w/calls"
[ "\$1" = --quiet ] && shift
action=\$1; shift
for u in "\$@"; do
  case \$action in
    mask) : >"$w/dsh/masked/\$u" ;;
    unmask) rm -f "$w/dsh/masked/\$u" ;;
    enable) : >"$w/dsh/enabled/\$u"; : >"$w/dsh/state/\$u" ;;
    update-state) : >"$w/dsh/state/\$u" ;;
    purge) rm -f "$w/dsh/state/\$u" "$w/dsh/enabled/\$u" ;;
    was-enabled) [ ! -e "$w/dsh/state/\$u" ] || [ -e "$w/dsh/enabled/\$u" ] || exit 1 ;;
    debian-installed) [ -e "$w/dsh/state/\$u" ] || exit 1 ;;
  esac
done
exit 0
STUB
chmod +x "$w"/bin/*
for s in postinst prerm postrm; do
  sed -e "s#/run/systemd/system#$w/run/systemd/system#g" -e "s#/run/udev#$w/run/udev#g" \
      -e "s#/etc/cardtable#$w/etc/cardtable#g" -e "s#/usr/bin/deb-systemd-helper#$w/bin/deb-systemd-helper#g" \
      "$control/$s" >"$w/$s"
done
run() { : >"$w/calls"; PATH="$w/bin:$PATH" sh "$w/$1" "${@:2}" || bad "$1 $* exited $?"; }
masked() { (cd "$w/dsh/masked" && ls); }

# A first install: cardtabled.service enabled and started, the hub left disabled.
run postinst configure
grep -qx 'deb-systemd-invoke start cardtabled.service' "$w/calls" || bad "a first install does not start cardtabled.service"
[ -e "$w/dsh/enabled/cardtabled.service" ] || bad "a first install does not enable cardtabled.service"
[ ! -e "$w/dsh/enabled/cardtable-hub.service" ] || bad "a first install enables the hub"

# An upgrade restarts every running unit, the cardtabled@NAME instances too (they kept the old binary).
run postinst configure 0.1.0-1
restart=$(grep '^deb-systemd-invoke try-restart' "$w/calls" || true)
echo "upgrade: $restart"
for u in cardtabled.service cardtable-hub.service cardtabled@t1.service; do
  [[ " $restart " == *" $u "* ]] || bad "an upgrade does not try-restart $u"
done

# apt remove, then apt install: postrm masks both units, the postinst unmasks both; the hub, enabled by
# the technician before, is enabled again.
: >"$w/dsh/enabled/cardtable-hub.service"
run prerm remove
run postrm remove
[ "$(masked | tr '\n' ' ')" = "cardtable-hub.service cardtabled.service " ] || bad "remove masks: $(masked | tr '\n' ' ')"
run postinst configure 0.1.0-1
[ -z "$(masked)" ] || bad "masked after remove and install: $(masked | tr '\n' ' ')"
[ -e "$w/dsh/enabled/cardtable-hub.service" ] || bad "the hub, enabled before the remove, is not enabled again"

# apt purge: the configs go, and every folder tmpfiles.conf makes in /etc/cardtable, then /etc/cardtable
# (empty; a folder with the technician's files in it would stay).
for d in $(awk '$1 == "d" && $2 ~ "^/etc/cardtable/" { print $2 }' "$1/root/usr/lib/tmpfiles.d/cardtable.conf"); do
  mkdir -p "$w$d"
done
: >"$w/etc/cardtable/cardtabled.conf"
: >"$w/etc/cardtable/cardtable-hub.conf"
run prerm remove
run postrm remove
run postrm purge
[ ! -e "$w/etc/cardtable" ] || bad "left after purge: $(cd "$w" && find etc/cardtable | tr '\n' ' ')"
[ -z "$(masked)" ] || bad "masked after purge: $(masked | tr '\n' ' ')"

[ $fail -eq 0 ] && echo "maintainer scripts: install, upgrade, remove, install again and purge as expected"
exit $fail
