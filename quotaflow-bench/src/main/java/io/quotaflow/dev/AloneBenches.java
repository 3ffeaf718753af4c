package io.quotaflow.dev;

import io.quotaflow.bench.TenantPlan;
import io.quotaflow.bench.TenantShareResult;
import io.quotaflow.bench.TenantShareRunner;
import io.quotaflow.cli.ExitCodes;
import io.quotaflow.cli.ProgressLine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.records.Json;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;

/**
 * The benches of {@link BenchCommand} that run alone and print their own report: (l), (n), (y) and lean. Each also writes
 * its report to {@code --markdown} and {@code --json} when given ({@link #writeFiles}).
 */
final class AloneBenches {

    private AloneBenches() {
    }

    /**
     * Writes a bench's report to {@code --markdown} (as a code block) and to {@code --json}: the command, the seed, the
     * report's lines, whether it met its marks and, when Jackson can write it, the result itself ({@code result}; else
     * {@code resultNotWritten} says why).
     */
    static void writeFiles(BenchCommand bench, String scenario, String report, Object result, boolean clean) throws IOException {
        if (bench.markdown != null) {
            Files.writeString(bench.markdown, "```\n" + report + (report.endsWith("\n") ? "" : "\n") + "```\n", StandardCharsets.UTF_8);
        }
        if (bench.json != null) {
            ObjectNode root = Json.MAPPER.createObjectNode();
            root.put("command", ("quotaflow " + String.join(" ", bench.spec.commandLine().getParseResult().originalArgs())).strip());
            root.put("scenario", scenario);
            root.put("seed", bench.seed);
            root.put("availableProcessors", Runtime.getRuntime().availableProcessors());
            root.put("clean", clean);
            ArrayNode lines = root.putArray("report");
            report.lines().forEach(lines::add);
            try {
                root.set("result", Json.MAPPER.valueToTree(result));
            } catch (IllegalArgumentException e) {
                root.put("resultNotWritten", String.valueOf(e.getMessage()).lines().findFirst().orElse("not serializable"));
            }
            Files.writeString(bench.json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root), StandardCharsets.UTF_8);
        }
    }

    /** Bench (n): memory and tick time bounded through an outage with a large backlog (exit 1 if a ticket was lost or answered twice). */
    static int bounds(BenchCommand bench, PrintWriter out, ProgressLine line) throws IOException {
        int n = bench.tickets == null ? io.quotaflow.bench.BoundsBenchmark.DEFAULT_TICKETS : bench.tickets;
        var r = new io.quotaflow.bench.BoundsBenchmark(io.quotaflow.bench.BoundsBenchmark.Options.of(n),
                m -> line.println("[n bounds] " + m)).run();
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        writeFiles(bench, "n", r.report(), r, r.clean());
        return r.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** Bench (y): a self-hosted engine at its knee, configured as one or not, against a fixed 128 (exit 1 when auto misses its marks). */
    static int selfHosted(BenchCommand bench, PrintWriter out, ProgressLine line) throws IOException {
        var r = new io.quotaflow.bench.SelfHostedBenchmark(bench.seed, m -> line.println("[y self-hosted] " + m)).run();
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        writeFiles(bench, "y", r.report(), r, r.clean());
        return r.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** The lean-prompt report: tokens per ticket and accuracy per lever (exit 1 if a ticket went unclassified). */
    static int lean(BenchCommand bench, PrintWriter out, ProgressLine line) throws IOException {
        int n = bench.tickets == null ? io.quotaflow.bench.LeanBenchmark.DEFAULT_TICKETS : bench.tickets;
        var r = new io.quotaflow.bench.LeanBenchmark(n, bench.seed, m -> line.println("[lean] " + m)).run();
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        writeFiles(bench, "lean", r.report(), r, r.clean());
        return r.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** Bench (l): tenant shares by weight, on its own broker and simulator. */
    static int tenantShares(BenchCommand bench, PrintWriter out, ProgressLine line) throws IOException {
        int each = bench.tickets == null ? TenantShareRunner.DEFAULT_TICKETS_EACH : bench.tickets;
        TenantShareResult r = new TenantShareRunner(bench.seed, Duration.ofMinutes(bench.timeoutMinutes),
                m -> line.println("[l tenant-shares] " + m)).run(TenantPlan.benchL(each));
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        writeFiles(bench, "l", r.report(), r, r.passed());
        return r.passed() ? ExitCodes.OK : ExitCodes.FAILURE;
    }
}
