package io.quotaflow.dev;

import io.quotaflow.bench.TenantPlan;
import io.quotaflow.bench.TenantShareResult;
import io.quotaflow.bench.TenantShareRunner;
import io.quotaflow.cli.ExitCodes;
import io.quotaflow.cli.ProgressLine;

import java.io.PrintWriter;
import java.time.Duration;

/** The benches of {@link BenchCommand} that run alone and print their own report: (l), (n), (y) and lean. */
final class AloneBenches {

    private AloneBenches() {
    }

    /** Bench (n): memory and tick time bounded through an outage with a large backlog (exit 1 if a ticket was lost or answered twice). */
    static int bounds(BenchCommand bench, PrintWriter out, ProgressLine line) {
        int n = bench.tickets == null ? io.quotaflow.bench.BoundsBenchmark.DEFAULT_TICKETS : bench.tickets;
        var r = new io.quotaflow.bench.BoundsBenchmark(io.quotaflow.bench.BoundsBenchmark.Options.of(n),
                m -> line.println("[n bounds] " + m)).run();
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        return r.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** Bench (y): a self-hosted engine at its knee, configured as one or not, against a fixed 128 (exit 1 when auto misses its marks). */
    static int selfHosted(BenchCommand bench, PrintWriter out, ProgressLine line) {
        var r = new io.quotaflow.bench.SelfHostedBenchmark(bench.seed, m -> line.println("[y self-hosted] " + m)).run();
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        return r.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** The lean-prompt report: tokens per ticket and accuracy per lever (exit 1 if a ticket went unclassified). */
    static int lean(BenchCommand bench, PrintWriter out, ProgressLine line) {
        int n = bench.tickets == null ? io.quotaflow.bench.LeanBenchmark.DEFAULT_TICKETS : bench.tickets;
        var r = new io.quotaflow.bench.LeanBenchmark(n, bench.seed, m -> line.println("[lean] " + m)).run();
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        return r.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** Bench (l): tenant shares by weight, on its own broker and simulator. */
    static int tenantShares(BenchCommand bench, PrintWriter out, ProgressLine line) {
        int each = bench.tickets == null ? TenantShareRunner.DEFAULT_TICKETS_EACH : bench.tickets;
        TenantShareResult r = new TenantShareRunner(bench.seed, Duration.ofMinutes(bench.timeoutMinutes),
                m -> line.println("[l tenant-shares] " + m)).run(TenantPlan.benchL(each));
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        return r.passed() ? ExitCodes.OK : ExitCodes.FAILURE;
    }
}
