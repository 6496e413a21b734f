# Sourced by .ci/run and scripts/tools.sh: `apt_install_missing PKG…` installs
# the Debian packages that are not installed yet (with sudo when not root).
apt_install_missing() {
    local missing=()
    for pkg in "$@"; do
        # Installed, not merely known: `dpkg -s` also succeeds for a package
        # removed with its configuration files left (status `rc`).
        [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)" = installed ] || missing+=("$pkg")
    done
    if ((${#missing[@]})); then
        echo "installing ${missing[*]}"
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
    fi
}
