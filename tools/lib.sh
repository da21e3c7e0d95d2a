# Shell helpers sourced by tools/setup.sh and tools/sanitize.sh.

# apt_install_missing LABEL PACKAGE...: installs the Debian packages not yet installed
# (idempotent; sudo when not root).
apt_install_missing() {
  local label=$1
  shift
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "$label: installing ${missing[*]}" >&2
  local sudo_cmd=""
  [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
