package io.quotaflow.dev;

import io.quotaflow.demo.DemoReport;
import io.quotaflow.demo.DemoRun;
import io.quotaflow.records.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import io.quotaflow.cli.ExitCodes;

/** {@code quotaflow demo}: everything in one JVM, no Kafka and no API key needed. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        header = "Run the whole pipeline in-process on sample tickets; no key needed.",
        description = {
                "Starts an in-process Kafka broker and the provider simulator, publishes the bundled tickets",
                "(English and Portuguese, three priorities, a few malformed lines, one far too large),",
                "runs the pipeline until every ticket is classified or dead-lettered, and prints a report.",
                "",
                "Flags only: --config and QUOTAFLOW_* variables are not read. The demo makes its own",
                "broker, simulator and settings; --rpm and --tpm are the simulated provider's limits."},
        exitCodeList = {
                "0:every ticket classified or dead-lettered, zero 429s, zero duplicates",
                "1:the run failed: a 429, a lost or duplicated ticket, or a timeout",
                "2:usage error (bad option or --scenario)"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  ./quotaflow demo",
                "  ./quotaflow demo --scenario outage",
                "  ./quotaflow demo --scenario fallback --report-json fallback.json"})
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--tickets", description = "How many tickets to publish (default: the bundled ${DEFAULT-VALUE} = all of them; more repeat with new ids).",
            defaultValue = "0")
    int tickets;

    @Option(names = "--rpm", description = "Simulated requests-per-minute limit (default: 200; 600 for the outage scenario).")
    Long rpm;

    @Option(names = "--tpm", description = "Simulated tokens-per-minute limit (default: 45000, so the limiter binds; 150000 for the outage scenario).")
    Long tpm;

    @Option(names = "--report-json", description = "Also write the final report as JSON to this file.")
    Path reportJson;

    @Option(names = "--scenario", paramLabel = "steady|outage|fallback|tenants", defaultValue = "steady",
            description = {"steady (default): the rate limits bind on a healthy provider.",
                    "outage: the provider fails for longer than the retry budget; tickets go to tickets.retry and then",
                    "to tickets.dlq, interactive tickets that arrive meanwhile are handed off before their deadline, the",
                    "outage ends, the dead letters are replayed, and every valid ticket is classified once.",
                    "fallback: three routes (primary with an 8 k window, backup, long); the primary goes down mid-run and its",
                    "tickets move to the backup and back, the long route takes a ticket too large for the primary, and",
                    "copies of answered tickets are served from the cache.",
                    "tenants: a quiet tenant (weight 2, 150 tickets) and a noisy one (weight 1, 900 tickets three times as",
                    "long) publish at once into one route; prints each one's tickets, tokens and when it was done."})
    String scenario;

    @Override
    public Integer call() throws Exception {
        PrintStream err = System.err;
        boolean tty = System.console() != null;
        if (scenario.equalsIgnoreCase("fallback")) {
            return fallback(err, tty);
        }
        if (scenario.equalsIgnoreCase("tenants")) {
            io.quotaflow.bench.TenantShareResult r = new io.quotaflow.bench.TenantShareRunner(42, Duration.ofMinutes(20),
                    err::println).run(io.quotaflow.bench.TenantPlan.demo());
            System.out.print(r.demoReport());
            return r.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
        }
        DemoRun.Scenario chosen = switch (scenario.toLowerCase(java.util.Locale.ROOT)) {
            case "steady" -> DemoRun.Scenario.STEADY;
            case "outage" -> DemoRun.Scenario.OUTAGE;
            default -> throw new IllegalArgumentException("--scenario must be steady, outage, fallback or tenants, not " + scenario);
        };
        boolean outage = chosen == DemoRun.Scenario.OUTAGE;
        long rpmLimit = rpm != null ? rpm : outage ? 600 : 200;
        long tpmLimit = tpm != null ? tpm : outage ? 150_000 : 45_000;
        DemoRun.Options options = new DemoRun.Options(tickets, rpmLimit, tpmLimit, 5, Duration.ofMinutes(20),
                Duration.ofMillis(tty ? 250 : 5_000), chosen);
        ProgressOut out = new ProgressOut(err, tty);
        // within the terminal's width (80 columns when unknown): a longer line wraps and \r rewrites only its last row
        DemoReport report = DemoRun.run(options, p -> out.line(p.line()), err);
        out.end();
        return finish(report.render(), report, report.clean());
    }

    private Integer fallback(PrintStream err, boolean tty) throws java.io.IOException {
        DemoRun.Options options = new DemoRun.Options(tickets, rpm != null ? rpm : 300, tpm != null ? tpm : 60_000, 5,
                Duration.ofMinutes(20), Duration.ofMillis(tty ? 250 : 5_000));
        ProgressOut out = new ProgressOut(err, tty);
        io.quotaflow.demo.FallbackReport report = io.quotaflow.demo.FallbackDemo.run(options, out::line, err);
        out.end();
        return finish(report.render(), report, report.clean());
    }

    /** Prints the report, writes it as JSON when asked, and says how the run ended. */
    private Integer finish(String rendered, Object report, boolean clean) throws java.io.IOException {
        System.out.print(rendered);
        if (reportJson != null) {
            Files.writeString(reportJson, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report));
            System.out.println("report written to " + reportJson);
        }
        return clean ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** The live progress line: rewritten in place on a terminal, one line per sample otherwise. */
    private record ProgressOut(PrintStream err, boolean tty) {

        void line(String text) {
            if (tty) {
                // within the width, and the blanks clear what a longer line before left
                int width = io.quotaflow.cli.ProgressLine.width();
                String line = io.quotaflow.cli.ProgressLine.fit(text, width);
                err.print("\r" + line + " ".repeat(Math.max(0, width - 1 - line.length())));
            } else {
                err.println(text);
            }
        }

        void end() {
            if (tty) {
                err.println();
            }
        }
    }
}
