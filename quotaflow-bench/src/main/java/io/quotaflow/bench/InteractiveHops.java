package io.quotaflow.bench;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Where the interactive tickets' time went, hop by hop, from what each one's result says (its
 * {@code classifiedAt}, {@code latencyMs}, the intake time its {@code queuedMs} gives, the send time of its
 * call in {@code qf.sent-at}, its arrival at the dispatcher in {@code qf.arrived-at}) and what the {@link LaneWatch} saw (when it became readable on the
 * interactive lane, and its result on {@code tickets.classified}). A ticket counts in a hop only when
 * both of the hop's ends are known.
 */
final class InteractiveHops {

    /** The hops, in the order a ticket passes them. */
    enum Hop {
        INTAKE("publish → intake"),
        LANE("intake → readable on the lane (commit)"),
        FETCH("lane → at the dispatcher (fetch)"),
        DISPATCH("at the dispatcher → call sent (tick, capacity)"),
        CALL("the call"),
        APPLY("answer → result written (tick)"),
        RESULT("result written → readable (commit)"),
        TOTAL("publish → result readable");

        final String label;

        Hop(String label) {
            this.label = label;
        }
    }

    private final Map<Hop, List<Long>> samples = new EnumMap<>(Hop.class);

    private InteractiveHops() {
        for (Hop h : Hop.values()) {
            samples.put(h, new ArrayList<>());
        }
    }

    /** The hops of the tickets of {@code publishedAt} (id to publish time) from their results' {@code times} and what was {@code seen}. */
    static InteractiveHops of(Map<String, Long> publishedAt, Map<String, ResultTimes> times, Map<String, LaneWatch.Seen> seen) {
        InteractiveHops hops = new InteractiveHops();
        for (Map.Entry<String, Long> p : publishedAt.entrySet()) {
            ResultTimes t = times.get(p.getKey());
            LaneWatch.Seen s = seen.getOrDefault(p.getKey(), LaneWatch.Seen.NONE);
            long published = p.getValue();
            long intake = t == null ? 0 : t.intakeAtMs();
            long answered = t == null || s.sentAt() == 0 ? 0 : s.sentAt() + t.latencyMs();
            hops.add(Hop.INTAKE, published, intake);
            hops.add(Hop.LANE, intake, s.onLaneAt());
            hops.add(Hop.FETCH, s.onLaneAt(), s.arrivedAt());
            hops.add(Hop.DISPATCH, s.arrivedAt(), s.sentAt());
            hops.add(Hop.CALL, s.sentAt(), answered);
            hops.add(Hop.APPLY, answered, t == null ? 0 : t.classifiedAtMs());
            hops.add(Hop.RESULT, t == null ? 0 : t.classifiedAtMs(), s.resultAt());
            hops.add(Hop.TOTAL, published, s.resultAt());
        }
        return hops;
    }

    private void add(Hop hop, long from, long to) {
        if (from > 0 && to > 0) {
            // clocks of one machine; a hop read as negative (a time cut to the millisecond) counts as 0
            samples.get(hop).add(Math.max(0, to - from));
        }
    }

    /** The samples of {@code hop}, in ms. */
    List<Long> samples(Hop hop) {
        return List.copyOf(samples.get(hop));
    }

    /** The nearest-rank {@code p}-th percentile of {@code hop} in ms, -1 when no ticket counted in it. */
    long percentile(Hop hop, double p) {
        List<Long> s = samples.get(hop);
        return s.isEmpty() ? -1 : Percentiles.nearestRank(s, p);
    }

    /** One line: each hop's p50 / p99 in ms, and how many tickets it counted when not all. */
    String describe(int tickets) {
        StringJoiner line = new StringJoiner("; ", "interactive hops, p50 / p99 in ms: ", "");
        for (Hop h : Hop.values()) {
            int n = samples.get(h).size();
            if (n == 0) {
                line.add(h.label + " –");
                continue;
            }
            line.add(String.format(Locale.ROOT, "%s %d / %d%s", h.label, percentile(h, 50), percentile(h, 99),
                    n < tickets ? " (" + n + " of " + tickets + ")" : ""));
        }
        return line.toString();
    }
}
