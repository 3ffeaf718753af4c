package io.quotaflow.bench;

import io.quotaflow.simulator.SimulatorStats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Use of the binding limit per {@value #SLOT_SECONDS}-second slot from the first call to the last, so that where a
 * run leaves quota unused shows: the start, the batch boundaries, the tail. A slot's use is what the simulator admitted
 * in its seconds over the limit's refill in them ({@code limit / 60 × seconds}); the first slot's share also counts the
 * bucket's starting level once, as {@link WholeRunUse} does, and the last slot is as long as what is left of the run.
 */
final class SlotUse {

    static final int SLOT_SECONDS = 10;

    private SlotUse() {
    }

    /** Each slot's use, in order; empty when the run made no call. */
    static List<Double> of(SimulatorStats stats, Binding binding, long firstCallEpochMs, long lastCallEpochMs) {
        Objects.requireNonNull(stats, "stats");
        long first = Math.floorDiv(firstCallEpochMs, 1000);
        long end = Math.floorDiv(Math.max(firstCallEpochMs, lastCallEpochMs), 1000) + 1;
        boolean tokens = binding == Binding.TPM;
        double perSecond = (tokens ? stats.tpmLimit() : stats.rpmLimit()) / 60.0;
        double start = tokens ? stats.admissibleTokens(0) : stats.admissibleRequests(0);
        List<Double> use = new ArrayList<>();
        for (long from = first; from < end; from += SLOT_SECONDS) {
            long to = Math.min(end, from + SLOT_SECONDS);
            double admitted = tokens ? stats.tokensAdmittedBetween(from, to) : stats.requestsAdmittedBetween(from, to);
            double admissible = perSecond * (to - from) + (from == first ? start : 0);
            use.add(admissible > 0 ? admitted / admissible : 0);
        }
        return use;
    }

    /** {@code use per 10 s slot from the first call: 98 %, 100 %, ..., 61 % (the last 4 s)}. */
    static String describe(List<Double> use, long firstCallEpochMs, long lastCallEpochMs) {
        if (use.isEmpty()) {
            return "use per " + SLOT_SECONDS + " s slot: no call";
        }
        long seconds = Math.floorDiv(Math.max(firstCallEpochMs, lastCallEpochMs), 1000) - Math.floorDiv(firstCallEpochMs, 1000) + 1;
        long last = seconds - (long) (use.size() - 1) * SLOT_SECONDS;
        return String.format(Locale.ROOT, "use of the binding limit per %d s slot from the first call (the first with the "
                + "starting bucket; the last %d s): %s", SLOT_SECONDS, last,
                use.stream().map(u -> String.format(Locale.ROOT, "%.0f %%", u * 100)).collect(Collectors.joining(", ")));
    }
}
