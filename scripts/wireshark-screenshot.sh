#!/bin/sh
# wireshark-screenshot.sh - retake docs/img/wireshark-columns.png with the real
# Wireshark (Qt) under Xvfb: captures/vxlan.pcap with the csumcheck profile
# (its csum and kernel columns), frame 6 (inner TCP checksum bad, dropped)
# selected and its csumcheck subtree expanded.
#
#   scripts/wireshark-screenshot.sh [VERSION]      default 4.6 (root; Debian unstable root)
#
# It runs in the cached Debian root of tests/plugin/versions.sh (the plugin
# built there for that Wireshark), installs the GUI packages there with apt
# when missing (wireshark, xvfb, xdotool, x11-apps, imagemagick), and copies
# the picture to docs/img/. Wireshark runs as uid 65534 (as root it would
# ignore WIRESHARK_PLUGIN_DIR), from a world-readable stage it removes.
set -eu
cd "$(dirname "$0")/.."

if [ "${1:-}" = --inside ]; then
    build=$2 ver=$3 out=/var/tmp/csc-screenshot.png
    missing=""
    for p in wireshark xvfb xdotool x11-apps imagemagick fonts-dejavu-core; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    if [ -n "$missing" ]; then
        echo "screenshot: installing$missing in the root"
        apt-get -o Acquire::Check-Valid-Until=false update -qq >/dev/null 2>&1 || true
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
    fi
    stage=$(mktemp -d /var/tmp/csc-shot.XXXXXX)
    trap 'kill $ws $xv 2>/dev/null || true; rm -rf "$stage"' EXIT
    chmod 755 "$stage"
    mkdir -p "$stage/plugins/$ver/epan" "$stage/config/profiles/csumcheck" "$stage/home" "$stage/extcap"
    cp "$build/plugins/$ver/epan/csumcheck.so" "$stage/plugins/$ver/epan/"
    cp plugin/profile/preferences "$stage/config/profiles/csumcheck/"
    # no bytes pane: room for the tree
    printf 'gui.byte_view_show: FALSE\ngui.geometry_main_upper_pane: 300\ngui.geometry_main_width: 1400\ngui.geometry_main_height: 1100\n' \
        >"$stage/config/profiles/csumcheck/recent"
    cp captures/vxlan.pcap "$stage/"
    chmod -R a+rX "$stage"
    chown 65534:65534 "$stage/home"
    Xvfb :77 -screen 0 1400x1100x24 -ac -nolisten tcp >/dev/null 2>&1 &
    xv=$!
    sleep 2
    setpriv --reuid=65534 --regid=65534 --clear-groups env -i PATH=/usr/bin:/bin DISPLAY=:77 \
        HOME="$stage/home" WIRESHARK_PLUGIN_DIR="$stage/plugins" WIRESHARK_CONFIG_DIR="$stage/config" \
        WIRESHARK_EXTCAP_DIR="$stage/extcap" QT_QPA_PLATFORM=xcb \
        wireshark -C csumcheck -r "$stage/vxlan.pcap" -g 6 >"$stage/wireshark.log" 2>&1 &
    ws=$!
    w=""
    for _ in $(seq 30); do
        sleep 1
        w=$(DISPLAY=:77 xdotool search --name 'vxlan.pcap' 2>/dev/null | tail -1) || true
        [ -n "$w" ] && break
    done
    [ -n "$w" ] || { echo "screenshot: no Wireshark window"; cat "$stage/wireshark.log"; exit 1; }
    sleep 3
    export DISPLAY=:77
    xdotool windowmove "$w" 0 0 windowsize "$w" 1400 1100
    sleep 2
    # the packet details pane: click into it, go to its last top-level item
    # (the postdissector's), expand it and all its subtrees
    xdotool mousemove 300 560 click 1
    sleep 1
    xdotool key End
    sleep 1
    xdotool key shift+Right
    sleep 2
    xwd -root -silent | convert xwd:- png:"$out"
    echo "screenshot: $(tshark --version 2>/dev/null | head -1), $out"
    exit 0
fi

ver=${1:-4.6}
tests/plugin/versions.sh --run "$ver" "sh scripts/wireshark-screenshot.sh --inside \"\$CSC_BUILD\" $ver"
case $ver in 4.4) suite=trixie ;; *) suite=sid ;; esac
cp "${CSC_ROOTS:-${HOME:-/root}/.cache/csumcheck/roots}/$suite/var/tmp/csc-screenshot.png" docs/img/wireshark-columns.png
echo "screenshot: docs/img/wireshark-columns.png (Wireshark $ver)"
