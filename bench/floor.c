/*
 * floor.c - the benchmark's floor (issue #5): read the file with read() into
 * a 256 KiB buffer and sum every byte once. Nothing can read and look at
 * every byte of a capture faster than this on the same machine.
 *
 *   cc -O3 -o floor bench/floor.c && ./floor FILE|-
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BUF (256u * 1024u)

static unsigned char buf[BUF] __attribute__((aligned(64)));

int main(int argc, char **argv)
{
    int fd = argc > 1 && strcmp(argv[1], "-") ? open(argv[1], O_RDONLY) : 0;
    if (fd < 0) {
        perror(argv[1]);
        return 2;
    }
    uint64_t sum = 0, total = 0;
    ssize_t n;
    while ((n = read(fd, buf, BUF)) > 0) {
        for (ssize_t i = 0; i < n; i++)   /* vectorised at -O3 */
            sum += buf[i];
        total += (uint64_t)n;
    }
    if (n < 0) {
        perror("read");
        return 2;
    }
    printf("%llu bytes, byte sum %llu\n", (unsigned long long)total, (unsigned long long)sum);
    return 0;
}
