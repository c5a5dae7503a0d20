/*
 * replay_main.c - run a fuzz target over files without libFuzzer: the
 * regression inputs in tests/fuzz/regressions/ run in every build (normal
 * and ASan+UBSan) as a CTest.
 *   csc-fuzz-replay-<target> FILE...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    static uint8_t buf[1 << 20];
    int n = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "cannot open %s\n", argv[i]);
            return 2;
        }
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        LLVMFuzzerTestOneInput(buf, len);
        n++;
    }
    printf("%d inputs replayed without a finding\n", n);
    return n ? 0 : 2;
}
