package io.quotaflow.bench;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Bench (n), bounds (docs/benchmark.md, "Bounds"): {@code tickets} bulk tickets of 2,000 tenants
 * wait while the provider is down, then it comes back ({@link BoundsRun}: one scope's ledger and
 * queue over RocksDB stores). It prints the heap used after a full GC as the backlog grows, against
 * {@code queue.max-pending}; the status snapshot's and the proposal's times per tick as percentiles;
 * how much spilled and came back; that every ticket was answered exactly once and the stores are
 * empty. Then, in the same run, the status view, the proposal and a tenant joining as they were
 * before bounds against the bounded ones ({@link BoundsMicro}), with ratios. Not a test: it reports.
 */
public final class BoundsBenchmark {

    public static final String KEY = "n";
    public static final String NAME = "bounds";
    public static final int DEFAULT_TICKETS = 1_000_000;
    static final int TENANTS = 2_000;
    /** Heap per ticket in memory used for the bound's arithmetic (docs/design.md, "Bounds"). */
    static final int BYTES_PER_TICKET = 250;

    /**
     * @param tickets    tickets waiting through the outage
     * @param maxPending {@code queue.max-pending} of the run
     */
    public record Options(int tickets, int maxPending) {

        /** {@code tickets} under a bound a tenth of them (at most the default, at least 1,000). */
        public static Options of(int tickets) {
            return new Options(tickets, Math.max(1_000, Math.min(DispatcherSettings.DEFAULT_MAX_PENDING, tickets / 10)));
        }
    }

    /** The report, and whether nothing was lost or answered twice. */
    public record Result(String report, boolean clean) {
    }

    private final Options options;
    private final Consumer<String> progress;

    public BoundsBenchmark(Options options, Consumer<String> progress) {
        this.options = options;
        this.progress = progress;
    }

    static DispatcherSettings settings(int maxPending) {
        ModelSettings model = ModelSettings.of(URI.create("http://localhost:1/v1"), "gpt-4o-mini", Secret.of("sk-bench-bounds"));
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(600_000).withTpm(400_000_000);
        BatchSettings batch = BatchSettings.ofDefaults().withMaxItems(100).withMaxPromptTokens(100_000);
        return DispatcherSettings.builder(model, quota, batch, RetrySettings.ofDefaults()).build().withMaxPending(maxPending);
    }

    public Result run() {
        DispatcherSettings settings = settings(options.maxPending());
        Path dir = tempDir();
        BoundsRun.Figures f;
        try {
            f = BoundsRun.run(settings, options.tickets(), TENANTS, dir, progress);
        } finally {
            deleteQuietly(dir);
        }
        StringBuilder out = new StringBuilder();
        long bound = (long) settings.maxPending() * BYTES_PER_TICKET;
        out.append(String.format(Locale.ROOT, "%n(n) bounds: %,d bulk tickets of %,d tenants waiting while the provider is down; "
                + "queue.max-pending %,d (%,d MiB at %d B a ticket); max heap %,d MiB%n%n", options.tickets(), TENANTS,
                settings.maxPending(), bound >> 20, BYTES_PER_TICKET, Runtime.getRuntime().maxMemory() >> 20));
        heapTable(out, f.heap(), f.baseline(), bound);
        out.append(String.format(Locale.ROOT, "%n| per tick (µs) | count | p50 | p99 | max |%n|---|---:|---:|---:|---:|%n"));
        out.append(row("status snapshot, every 500 ms (view + tenants + ages)", f.snapshotNs()));
        out.append(row("batch proposal, every 50 ms", f.proposalNs()));
        out.append(row("provider back: a tick (refill + up to 20 calls of 100)", f.drainTickNs()));
        out.append(String.format(Locale.ROOT, "%nspilled: %,d tickets (at most %,d at once); refilled: %,d; accepted in %.1f s, "
                        + "drained in %.1f s%n", f.spilledEver(), f.maxSpilled(), f.refilledEver(), f.publishSeconds(), f.drainSeconds()));
        boolean clean = f.lost() == 0 && f.duplicates() == 0 && f.pendingLeft() == 0 && f.overflowLeft() == 0;
        out.append(String.format(Locale.ROOT, "answered %,d of %,d: nothing lost: %s (%d), no duplicates: %s (%d); "
                        + "left in qf-pending %d, in qf-overflow %d%n", f.answered(), options.tickets(), f.lost() == 0 ? "yes" : "NO",
                f.lost(), f.duplicates() == 0 ? "yes" : "NO", f.duplicates(), f.pendingLeft(), f.overflowLeft()));
        clean &= topology(settings, out);
        progress.accept("side by side: the status view, a proposal and a tenant joining, before and after bounds");
        int n = options.tickets();
        out.append(String.format(Locale.ROOT, "%nbefore and after bounds, one queue of %,d tickets all in memory (µs):%n%n", n));
        out.append("| operation | old p50 | old p99 | new p50 | new p99 | old / new (p50) |\n|---|---:|---:|---:|---:|---:|\n");
        for (int tenants : new int[]{TENANTS, 100_000}) {
            int t = Math.min(tenants, n);
            for (BoundsMicro.Row r : BoundsMicro.run(settings, n, t, 200)) {
                out.append(r.line().replaceFirst("\\| ", String.format(Locale.ROOT, "| %,d tenants: ", t))).append('\n');
            }
        }
        return new Result(out.toString(), clean);
    }

    /** The same outage through the whole topology ({@link TopologyBoundsRun}); whether nothing was lost or answered twice. */
    private boolean topology(DispatcherSettings settings, StringBuilder out) {
        progress.accept("the same outage through the whole topology (TopologyTestDriver, RocksDB on disk)");
        Path dir = tempDir();
        TopologyBoundsRun.Figures f;
        try {
            f = TopologyBoundsRun.run(settings, options.tickets(), TENANTS, dir, progress);
        } finally {
            deleteQuietly(dir);
        }
        long bound = (long) settings.maxPending() * BYTES_PER_TICKET;
        out.append(String.format(Locale.ROOT, "%nthe whole topology (intake, dispatch repartition, dispatcher; TopologyTestDriver, RocksDB "
                + "stores on disk, no broker), the route halted on 401 while the tickets arrive, one 50 ms step of wall-clock time "
                + "every %,d tickets:%n%n", TopologyBoundsRun.TICKETS_PER_TICK));
        heapTable(out, f.heap(), f.baseline(), bound);
        out.append(String.format(Locale.ROOT, "%n| per 50 ms step (µs) | count | p50 | p99 | max |%n|---|---:|---:|---:|---:|%n"));
        out.append(row("while tickets arrive (every punctuator due: proposal, snapshot, sweeps)", f.tickNs()));
        out.append(row("provider back (probe, then the drain)", f.drainTickNs()));
        boolean clean = f.lost() == 0 && f.duplicates() == 0 && f.deadLetters() == 0;
        out.append(String.format(Locale.ROOT, "%nat most %,d spilled at once; %,d calls refused while halted (the probes); accepted in %.1f s, "
                + "drained in %.1f s; answered %,d of %,d: nothing lost: %s (%d), no duplicates: %s (%d), dead letters %d%n",
                f.maxSpilled(), f.probes(), f.publishSeconds(), f.drainSeconds(), f.answered(), options.tickets(),
                f.lost() == 0 ? "yes" : "NO", f.lost(), f.duplicates() == 0 ? "yes" : "NO", f.duplicates(), f.deadLetters()));
        return clean;
    }

    /** The heap as the backlog grew (rows of waiting, heap after GC, spilled, in memory), against the queue's bound. */
    private static void heapTable(StringBuilder out, List<long[]> heap, long baseline, long bound) {
        out.append("| waiting | in memory | spilled to disk | heap after GC (MiB) | above the start (MiB) |\n|---:|---:|---:|---:|---:|\n");
        long peak = 0;
        for (long[] h : heap) {
            peak = Math.max(peak, h[1]);
            out.append(String.format(Locale.ROOT, "| %,d | %,d | %,d | %,d | %,d |%n", h[0], h[3], h[2], h[1] >> 20,
                    Math.max(0, h[1] - baseline) >> 20));
        }
        out.append(String.format(Locale.ROOT, "%nheap at the start %,d MiB; most above it %,d MiB, against the queue's bound of %,d MiB%n",
                baseline >> 20, Math.max(0, peak - baseline) >> 20, bound >> 20));
    }

    private static String row(String what, List<Long> ns) {
        if (ns.isEmpty()) {
            return "| " + what + " | 0 | | | |\n";
        }
        long[] s = ns.stream().mapToLong(Long::longValue).sorted().toArray();
        return String.format(Locale.ROOT, "| %s | %,d | %,.1f | %,.1f | %,.1f |%n", what, s.length, s[s.length / 2] / 1e3,
                s[Math.max(0, (int) Math.ceil(s.length * 0.99) - 1)] / 1e3, s[s.length - 1] / 1e3);
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("qf-bench-bounds");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temp dir left behind
        }
    }
}
