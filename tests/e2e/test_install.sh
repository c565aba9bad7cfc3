# make install: `make install DESTDIR=... PREFIX=/usr` with BIN set to the
# tools already built (FRONTIER_BIN, else bin; `-o all` so nothing is
# rebuilt) puts every tool, every man page and the bash completion in place;
# man finds and renders the installed pages; the installed tools run on
# their own (a tiny add/lease), and the installed completion completes them.
set -u
: "${ROOT:?}"
BIN=${FRONTIER_BIN:-bin}
BUILD=build${BIN#bin}  # bin -> build, bin-asan -> build-asan, bin-ex -> build-ex
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
TOOLS=""
for src in "$ROOT"/tools/*.cpp; do TOOLS="$TOOLS $(basename "$src" .cpp)"; done
for t in $TOOLS; do [ -x "$ROOT/$BIN/$t" ] || { echo "FAIL: $BIN/$t is not built"; exit 1; }; done

dest=$PWD/dest
make -C "$ROOT" --no-print-directory -o all install DESTDIR="$dest" PREFIX=/usr BIN="$BIN" BUILD="$BUILD" \
    > install.log 2>&1 || { cat install.log; echo "FAIL: make install"; exit 1; }
# Nothing outside DESTDIR: every path make install names is under it.
grep -oE '(^| )/[^ ]+' install.log | grep -v "^ *$ROOT/" | grep -v "^ *$dest" | sed 's/^/outside DESTDIR: /' > outside.txt
[ -s outside.txt ] && bad "$(cat outside.txt)"

# Binaries: each tool, executable, the very file that was built.
for t in $TOOLS; do
    f=$dest/usr/bin/$t
    [ -x "$f" ] || { bad "usr/bin/$t missing or not executable"; continue; }
    # Stripped copies of the built tools: no debug sections, same code.
    file "$f" 2>/dev/null | grep -q 'not stripped' && bad "usr/bin/$t is not stripped"
    [ "$(stat -c %s "$f")" -lt "$(stat -c %s "$ROOT/$BIN/$t")" ] || bad "usr/bin/$t is not smaller than $BIN/$t"
done
# Man pages: one per tool in man1, frontier.7 in man7; man finds them by name
# in the installed tree and renders them.
for page in "$ROOT"/man/*.1 "$ROOT"/man/*.7; do
    name=$(basename "$page"); sec=${name##*.}
    [ -f "$dest/usr/share/man/man$sec/$name" ] || bad "usr/share/man/man$sec/$name missing"
done
for t in $TOOLS; do [ -f "$dest/usr/share/man/man1/$t.1" ] || bad "no man page installed for $t"; done
render() {  # render SECTION NAME FILE -> plain text on stdout
    if command -v man > /dev/null; then
        # Not a terminal: man-db prints plain text.
        MANWIDTH=80 man -M "$dest/usr/share/man" "$1" "$2" 2> render.err
    elif command -v groff > /dev/null; then
        groff -man -Tascii -P-c "$3" 2> render.err | sed 's/.\x08//g'
    else
        echo "neither man nor groff: rendering not checked" >&2; return 2
    fi
}
for f in "$dest"/usr/share/man/man1/*.1 "$dest"/usr/share/man/man7/*.7; do
    name=$(basename "$f"); sec=${name##*.}; name=${name%.*}
    text=$(render "$sec" "$name" "$f"); rc=$?
    [ $rc -eq 2 ] && break
    grep -q "^NAME" <<<"$text" && grep -q "$name" <<<"$text" && grep -q "^SEE ALSO" <<<"$text" ||
        bad "man $sec $name does not render from the installed tree"
    [ -s render.err ] && bad "man $sec $name: $(head -3 render.err)"
done

# Completion: the script, and one name per tool pointing at it (how
# bash-completion finds a command's completion).
comp=$dest/usr/share/bash-completion/completions
[ -f "$comp/frontier" ] || bad "bash completion not installed at share/bash-completion/completions/frontier"
for t in $TOOLS; do
    [ "$(readlink -f "$comp/$t" 2>/dev/null)" = "$(readlink -f "$comp/frontier")" ] ||
        bad "share/bash-completion/completions/$t does not lead to the completion script"
done

# The installed tools run by themselves, with no build tree on PATH.
export PATH="$dest/usr/bin:/usr/bin:/bin"
hash -r
for t in $TOOLS; do
    "$t" --version | grep -q "^$t " || bad "installed $t --version"
done
echo http://example.com/a | frontier-add -q -f x.db || bad "installed frontier-add failed"
frontier-config -f x.db robots.enabled false || bad "installed frontier-config failed"
out=$(FRONTIER_NOW=1800000000 frontier-lease -f x.db -n 5)
grep -q '"url":"http://example.com/a"' <<<"$out" || bad "installed frontier-lease did not lease: $out"
# The installed completion completes the installed tools.
got=$(bash -c 'source "$1"; COMP_WORDS=(frontier-lease --fol); COMP_CWORD=1; _frontier; echo "${COMPREPLY[*]}"' _ "$comp/frontier-lease")
[ "$got" = "--follow" ] || bad "installed completion: frontier-lease --fol -> '$got'"

# PREFIX is honoured too.
make -C "$ROOT" --no-print-directory -o all install DESTDIR="$PWD/dest2" PREFIX=/opt/frontier BIN="$ROOT/$BIN" BUILD="$BUILD" \
    > install2.log 2>&1 || bad "make install PREFIX=/opt/frontier: $(tail -3 install2.log)"
[ -x dest2/opt/frontier/bin/frontier-add ] && [ -f dest2/opt/frontier/share/man/man7/frontier.7 ] ||
    bad "PREFIX=/opt/frontier: files not under opt/frontier"

# make uninstall removes every file make install put there, and nothing else.
touch dest2/opt/frontier/bin/not-ours
make -C "$ROOT" --no-print-directory uninstall DESTDIR="$PWD/dest2" PREFIX=/opt/frontier > uninstall.log 2>&1 ||
    bad "make uninstall: $(tail -3 uninstall.log)"
left=$(cd dest2 && find . \( -type f -o -type l \) | sort | tr '\n' ' ')
[ "$left" = "./opt/frontier/bin/not-ours " ] || bad "make uninstall left: $left"

[ $fails -eq 0 ] && echo "PASS install"
exit $((fails > 0))
