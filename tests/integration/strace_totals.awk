# Sums, from `strace -f -y` output, the successful calls on paths at or
# under root: opens, reads and bytes read, stats (test_budget_fold.sh).
# glibc's fdopendir checks the descriptor with an internal fstat, which no
# preloaded library can see: an fstat directly followed by fcntl(F_GETFL)
# on the same descriptor is that one, and is not counted.
function under(p) { return p == root || index(p, root "/") == 1 }
# The path strace -y shows for the first (descriptor) argument.
function fd_path(s) {
    if (!match(s, /^[a-z0-9_]+\(([0-9]+|AT_FDCWD)<[^>]*>/)) return ""
    s = substr(s, RSTART, RLENGTH); sub(/^[^<]*</, "", s); sub(/>$/, "", s)
    return s
}
# The first string argument.
function str_arg(s) {
    if (!match(s, /"[^"]*"/)) return ""
    return substr(s, RSTART + 1, RLENGTH - 2)
}
{
    line = $0
    if (pending != "" && index(line, "fcntl(" pending ", F_GETFL)") > 0)
        stats--
    pending = ""
    sub(/^[0-9]+ +/, "", line)
    if (line !~ /\) += [0-9]/) next          # failed, unfinished or resumed
    call = line; sub(/\(.*/, "", call)
    ret = line; sub(/.*\) += /, "", ret)
    if (call == "openat" || call == "open" || call == "creat") {
        if (match(ret, /<[^>]*>/) && under(substr(ret, RSTART + 1, RLENGTH - 2))) opens++
    } else if (call ~ /^(read|pread64|readv|preadv|preadv2)$/) {
        if (under(fd_path(line))) { reads++; bytes += ret + 0 }
    } else if (call ~ /^(newfstatat|fstatat64|statx)$/) {
        name = str_arg(line); dir = fd_path(line)
        p = name == "" ? dir : (name ~ /^\// ? name : dir "/" name)
        if (under(p)) {
            stats++
            if (name == "" && match(line, /^[a-z0-9_]+\([0-9]+<[^>]*>/))
                pending = substr(line, index(line, "(") + 1, RLENGTH - index(line, "("))
        }
    } else if (call ~ /^(fstat|fstat64)$/) {
        if (under(fd_path(line))) stats++
    } else if (call ~ /^(stat|lstat|stat64|lstat64)$/) {
        if (under(str_arg(line))) stats++
    }
}
END { printf "%d %d %d %d\n", opens, reads, bytes, stats }
