/*
 * Game IDs from one of Tatham's own generators (the game linked in: singles.c for
 * Singles, Tatham's Hitori), for the calibration benchmark's graded sets. Built by
 * `make bench-peers` against the upstream sources of Debian's sgt-puzzles package;
 * nothing of those sources is kept in this repository.
 *
 * Usage: singles-generate PARAMS COUNT SEED, e.g. `singles-generate 8x8dk 10 cal-8x8dk`:
 * COUNT game IDs ("8x8dk:1627...") made at the level PARAMS names (Singles: `de` Easy,
 * `dk` Tricky), one per line, the same for the same seed string. The generator keeps
 * a puzzle only where its solver needs that level's techniques and no easier level's
 * suffice, so the level is a yardstick for a grade.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "puzzles.h"

extern const game thegame;

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s PARAMS COUNT SEED\n", argv[0]);
        return 2;
    }
    game_params *params = thegame.default_params();
    thegame.decode_params(params, argv[1]);
    const char *invalid = thegame.validate_params(params, true);
    if (invalid) {
        fprintf(stderr, "%s: %s\n", argv[1], invalid);
        return 2;
    }
    random_state *random = random_new(argv[3], strlen(argv[3]));
    char *encoded = thegame.encode_params(params, true);
    for (int made = 0; made < atoi(argv[2]); made++) {
        char *aux = NULL;
        char *desc = thegame.new_desc(params, random, &aux, false);
        printf("%s:%s\n", encoded, desc);
        fflush(stdout);
        sfree(desc);
        sfree(aux);
    }
    sfree(encoded);
    random_free(random);
    thegame.free_params(params);
    return 0;
}
