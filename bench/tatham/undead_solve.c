/*
 * Tatham's own Undead solver (undead.c's solve_game), timed in-process, for the peers
 * benchmark. Built by `make bench-peers` against the upstream sources of Debian's
 * sgt-puzzles package; nothing of those sources is kept in this repository.
 *
 * Reads game IDs ("5x5:6,7,2,LdLb...") one per line on standard input and prints, for
 * each, the best of REPEAT wall times in seconds (parsing the ID into a game state and
 * solving it, as the game's Solve command does) and "solved", or the error the game
 * gave. Usage: undead-solve [REPEAT] < ids.txt, or undead-solve REPEAT ID... (a
 * whole command per puzzle, as a player would run one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "puzzles.h"

extern const game thegame;

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec * 1e-9;
}

/* One game ID solved REPEAT times; its best time and verdict printed. */
static void time_one(char *id, int repeat)
{
    char *colon = strchr(id, ':');
    if (!colon) {
        printf("-\tnot a game ID\n");
        return;
    }
    *colon = '\0';
    game_params *params = thegame.default_params();
    thegame.decode_params(params, id);
    const char *invalid = thegame.validate_desc(params, colon + 1);
    if (invalid) {
        printf("-\tinvalid: %s\n", invalid);
        thegame.free_params(params);
        return;
    }
    double best = 1e30;
    const char *error = NULL;
    for (int round = 0; round < repeat; round++) {
        double started = seconds_now();
        game_state *state = thegame.new_game(NULL, params, colon + 1);
        char *move = thegame.solve(state, state, NULL, &error);
        thegame.free_game(state);
        double took = seconds_now() - started;
        if (took < best)
            best = took;
        sfree(move);
    }
    printf("%.9f\t%s\n", best, error ? error : "solved");
    thegame.free_params(params);
}

int main(int argc, char **argv)
{
    int repeat = argc > 1 ? atoi(argv[1]) : 1;
    char line[1 << 16];
    if (repeat < 1)
        repeat = 1;
    if (argc > 2) {
        for (int i = 2; i < argc; i++)
            time_one(argv[i], repeat);
        return 0;
    }
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (*line)
            time_one(line, repeat);
        fflush(stdout);
    }
    return 0;
}
