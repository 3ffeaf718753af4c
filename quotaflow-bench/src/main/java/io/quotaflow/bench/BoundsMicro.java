package io.quotaflow.bench;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.report.QueueViews;
import io.quotaflow.dispatch.queue.TokenShares;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.status.Pace;
import io.quotaflow.status.QueueView;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The bounds benchmark's side-by-side timings (docs/benchmark.md, "Bounds"): on one in-memory queue
 * of {@code tickets} over {@code tenants}, the status view as it was built before (every ticket copied
 * and sorted, {@link #takeFull}) against the bounded one ({@link QueueViews#take}), and a
 * batch proposal with the linear tenant choice it had (a copy of the shares, then each ticket chosen
 * over every tenant) against {@link PendingQueue#propose}. Not a test: it prints.
 */
public final class BoundsMicro {

    /** One comparison: median and p99 of each, in microseconds. */
    public record Row(String what, double oldP50, double oldP99, double newP50, double newP99) {

        public double ratio() {
            return newP50 <= 0 ? Double.NaN : oldP50 / newP50;
        }

        public String line() {
            return String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %.0fx |", what, oldP50, oldP99, newP50, newP99, ratio());
        }
    }

    private BoundsMicro() {
    }

    /**
     * The view as it was built before bounds: every waiting ticket copied and sorted, class by class
     * ({@link QueueViews#served} over {@link PendingQueue#waiting}). O(n log n); the bounds benchmark's baseline.
     */
    static QueueView takeFull(DispatcherSettings settings, PendingQueue queue, Pace pace, long now) {
        List<QueueView.Waiting> waiting = new ArrayList<>(queue.size());
        long tokens = 0;
        for (Priority p : Priority.values()) {
            for (PendingQueue.Ref ref : QueueViews.served(queue.waiting(p), queue::cost, settings.tenants()::weight)) {
                waiting.add(new QueueView.Waiting(ref.id(), p, ref.tokens()));
                tokens += ref.tokens();
            }
        }
        return new QueueView(settings.scope(), settings.routing().routesOf(settings.scope()).stream().map(RouteSettings::name).toList(), now,
                QueueViews.rates(settings, pace, waiting.size(), tokens, now), waiting);
    }

    /** Runs the comparisons on a queue of {@code tickets} over {@code tenants} tenants; {@code rounds} timings each. */
    public static List<Row> run(DispatcherSettings settings, int tickets, int tenants, int rounds) {
        PendingQueue queue = new PendingQueue(TenantSettings.NONE, settings.batch().completionTokensPerItem());
        int each = Math.max(1, tickets / tenants);
        for (int i = 0; i < each; i++) {
            for (int t = 0; t < tenants; t++) {
                queue.add(Priority.BULK, new PendingQueue.Ref("t" + t + ":" + i, "t" + t, 100 + t % 50, (long) i * tenants + t, 0, 0, 400,
                        false));
            }
        }
        DispatchLedger ledger = new DispatchLedger(null, null, null, null, null, queue);
        Pace pace = new Pace();
        List<Row> rows = new ArrayList<>();
        int slowRounds = Math.max(3, rounds / 20);
        rows.add(compare("status view (500 ms tick)", slowRounds, rounds,
                () -> takeFull(settings, queue, pace, 0).size(), () -> QueueViews.take(settings, ledger, pace, 0).size()));
        rows.add(compare("batch proposal (10 tickets)", slowRounds, rounds,
                () -> linearProposal(queue, tenants, 10), () -> queue.propose(10, p -> 1_000_000, Long.MAX_VALUE, 0).map(p -> 1L).orElse(0L)));
        Map<String, Double> services = new HashMap<>();
        TokenShares shares = new TokenShares(t -> 1);
        for (int t = 0; t < tenants; t++) {
            services.put("t" + t, (double) t);
            shares.join("t" + t);
            shares.charge("t" + t, t);
        }
        int[] n = {0};
        rows.add(compare("a tenant joins", slowRounds, rounds, () -> {
            // as join was: the lowest service by a pass over every tenant's
            double min = services.values().stream().mapToDouble(Double::doubleValue).min().orElse(0);
            return (long) min;
        }, () -> {
            String t = "new" + n[0]++;
            shares.join(t);
            shares.leave(t);
            return 1L;
        }));
        return rows;
    }

    /** A proposal as it was chosen: the shares copied, then each ticket picked over every tenant. */
    private static long linearProposal(PendingQueue queue, int tenants, int items) {
        TokenShares shares = new TokenShares(t -> 1);
        List<String> open = new ArrayList<>(tenants);
        for (int t = 0; t < tenants; t++) {
            open.add("t" + t);
        }
        shares.join(open.get(0));
        TokenShares trial = shares.copy();
        long taken = 0;
        for (int i = 0; i < items; i++) {
            String t = trial.next(open, x -> 128);
            trial.charge(t, 128);
            taken++;
        }
        return taken;
    }

    private static Row compare(String what, int oldRounds, int newRounds, LongSupplier old, LongSupplier now) {
        double[] o = time(old, oldRounds);
        double[] n = time(now, newRounds);
        return new Row(what, o[0], o[1], n[0], n[1]);
    }

    /** Median and p99 in µs of {@code rounds} calls, after a few to warm up. */
    private static double[] time(LongSupplier call, int rounds) {
        long sink = 0;
        for (int i = 0; i < Math.min(rounds, 5); i++) {
            sink += call.getAsLong();
        }
        long[] ns = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            long start = System.nanoTime();
            sink += call.getAsLong();
            ns[i] = System.nanoTime() - start;
        }
        java.util.Arrays.sort(ns);
        if (sink == Long.MIN_VALUE) {
            System.out.print("");
        }
        return new double[]{ns[rounds / 2] / 1_000.0, ns[Math.min(rounds - 1, (int) Math.ceil(rounds * 0.99) - 1)] / 1_000.0};
    }
}
