#!/bin/sh
# make -j2 building a small C project, then running it; traced and
# untraced alike.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/common.sh"
iolens_setup
need make cc

make_project() {
    i=0
    while [ $i -lt 6 ]; do
        printf 'int part%d(int x) { return x * %d + %d; }\n' $i $((i + 2)) $i >"part$i.c"
        i=$((i + 1))
    done
    {
        echo '#include <stdio.h>'
        i=0
        while [ $i -lt 6 ]; do
            echo "int part$i(int);"
            i=$((i + 1))
        done
        echo 'int main(void) { int s = 0;'
        i=0
        while [ $i -lt 6 ]; do
            echo "    s += part$i($i);"
            i=$((i + 1))
        done
        # printf %s: dash's echo would turn the \n into a newline.
        printf '%s\n' '    FILE *f = fopen("result.txt", "w"); fprintf(f, "%d\n", s); fclose(f);'
        printf '%s\n' '    printf("sum %d\n", s); return 0; }'
    } >main.c
    printf 'OBJS = main.o part0.o part1.o part2.o part3.o part4.o part5.o\nprog: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n%%.o: %%.c\n\t$(CC) -O1 -c $< -o $@\n' \
        >Makefile
}
transparent "make -j2" make_project '
set -e
make -s -j2 CC=cc
./prog
cat result.txt
make -s -j2 CC=cc
make -s nothing-to-make 2>/dev/null || echo "make failed: $?"'
finish
