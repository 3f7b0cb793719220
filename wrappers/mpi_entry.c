/* The exported MPI entries (wrappers/mpi_entry.h says why): on x86-64,
 * for each name, and for its PMPI_ name at the same address, a few
 * instructions that leave the arguments untouched and go on to
 *   - the PMPI function, once the running MPI was refused
 *     (iolens_mpi_refused set, and iolens_PMPI_<name> resolved);
 *   - the C wrapper iolens_entry_<name> otherwise (which also answers
 *     for a PMPI function the library lacks).
 * %r11 is the scratch register the ABI leaves to such trampolines; the
 * endbr64 is a no-op but where indirect-branch tracking is on. */
#include "core/mpi_calls.h"
#include "mpi_entry.h"

#ifdef IOLENS_MPI_ENTRY_STUBS
#define IOLENS_MPI_ENTRY_STUB(name)                                    \
    __asm__(".text\n"                                                  \
            ".globl " #name "\n"                                       \
            ".type " #name ", @function\n"                             \
            ".globl P" #name "\n"                                      \
            ".type P" #name ", @function\n"                            \
            ".p2align 4\n" #name ":\n"                                 \
            "P" #name ":\n"                                            \
            "\tendbr64\n"                                              \
            "\tcmpl $0, iolens_mpi_refused(%rip)\n"                    \
            "\tjne 1f\n"                                               \
            "\tjmp iolens_entry_" #name "\n"                           \
            "1:\tmovq iolens_P" #name "(%rip), %r11\n"                 \
            "\ttestq %r11, %r11\n"                                     \
            "\tje iolens_entry_" #name "\n"                            \
            "\tjmp *%r11\n"                                            \
            ".size " #name ", .-" #name "\n"                          \
            ".size P" #name ", .-P" #name "\n");
IOLENS_MPI_ENTRIES(IOLENS_MPI_ENTRY_STUB)
#endif
