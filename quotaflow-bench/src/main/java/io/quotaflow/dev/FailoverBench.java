package io.quotaflow.dev;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.bench.FailoverResult;
import io.quotaflow.bench.FailoverRunner;
import io.quotaflow.bench.FailoverVariant;
import io.quotaflow.cli.ExitCodes;
import io.quotaflow.cli.ProgressLine;
import io.quotaflow.records.Json;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code quotaflow bench --scenario failover}: its options (a mixin of {@link BenchCommand}), its run and its files. */
final class FailoverBench {

    @Option(names = "--failover-variants", paramLabel = "LIST",
            description = "With --scenario failover: the settings measured, comma-separated (before, defaults, defaults-learned, "
                    + "defaults-no-credit, defaults-lag-100, static-10s, "
                    + "static-6s, static-6s-txn-5s, static-6s-txn-5s-sticky, static-6s-txn-5s-broker-1s, static-6s-hb-500ms-txn-5s, static-6s-no-standby, "
                    + "dynamic-6s, streams, streams-6s, each optionally +restart; all = every "
                    + "one; default: " + FailoverVariant.DEFAULT_SELECTION + "). The first is the baseline of the ratios.")
    String failoverVariants;

    @Option(names = "--failover-tpm", paramLabel = "N",
            description = "With --scenario failover: each scope's tokens per minute (default: " + FailoverRunner.DEFAULT_TPM
                    + ", low enough that the quotas bind, not the instances' share of the cores).")
    Long failoverTpm;

    @Option(names = "--failover-burst", paramLabel = "SECONDS",
            description = "With --scenario failover: how many seconds of its limit each simulator's bucket holds (default: "
                    + FailoverRunner.DEFAULT_BURST_SECONDS + "; 60 is a full-minute bucket).")
    Double failoverBurst;

    @Option(names = "--failover-shape", paramLabel = "ours|slow",
            description = "With --scenario failover: the simulators' shape: ours (default) or slow, (w)'s provider (cl100k_base, "
                    + "an 8 192-token context, about 2 s a call).")
    String failoverShape;

    /** Whether an option of the failover scenario alone was given. */
    boolean given() {
        return failoverVariants != null || failoverTpm != null || failoverBurst != null || failoverShape != null;
    }

    /** The failover scenario: each variant on fresh infrastructure, the first one the baseline of the ratios. */
    int run(BenchCommand bench, PrintWriter out, ProgressLine line) throws java.io.IOException {
        List<FailoverVariant> variants = FailoverVariant.select(failoverVariants);
        FailoverRunner.Options options = FailoverRunner.Options.defaults(bench.seed).withTimeout(Duration.ofMinutes(bench.timeoutMinutes))
                .withProgressInterval(Duration.ofMillis(ProgressLine.isTerminal() ? 250 : 5_000));
        if (bench.tickets != null) {
            options = options.withTickets(bench.tickets);
        }
        if (failoverTpm != null) {
            options = options.withTpm(failoverTpm);
        }
        if (failoverBurst != null) {
            options = options.withBurstSeconds(failoverBurst);
        }
        if (failoverShape != null) {
            options = options.withShape(switch (failoverShape.strip().toLowerCase(Locale.ROOT)) {
                case "ours" -> io.quotaflow.bench.ScenarioShape.DEFAULT;
                case "slow" -> io.quotaflow.bench.Scenario.SLOW_PROVIDER;
                default -> throw new IllegalArgumentException("--failover-shape is ours or slow: " + failoverShape);
            });
        }
        FailoverRunner runner = new FailoverRunner(options, new FailoverRunner.Listener() {
            @Override
            public void phase(FailoverVariant variant, String message) {
                line.println("[failover " + variant.name() + "] " + message);
            }

            @Override
            public void progress(FailoverVariant variant, String progress) {
                line.update(progress);
            }
        });
        String command = ("quotaflow " + String.join(" ", bench.spec.commandLine().getParseResult().originalArgs())).strip();
        Instant startedAt = Instant.now();
        List<FailoverResult> results = new ArrayList<>();
        Map<String, String> failures = new LinkedHashMap<>();
        for (FailoverVariant v : variants) {
            try {
                FailoverResult r = runner.run(v);
                results.add(r);
                line.println("[failover " + v.name() + "] done: " + r.details());
            } catch (RuntimeException e) {
                failures.put(v.name(), String.valueOf(e.getMessage()));
                line.println("[failover " + v.name() + "] FAILED: " + e.getMessage());
            }
            writeFiles(bench, results, failures, command, startedAt);
        }
        line.clear();
        out.println();
        out.print(FailoverResult.table(results));
        out.println();
        results.forEach(r -> out.println(r.variant() + ": " + r.details()));
        failures.forEach((name, why) -> out.println(name + ": FAILED: " + why));
        out.flush();
        return failures.isEmpty() && results.stream().allMatch(FailoverResult::clean) ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    private static void writeFiles(BenchCommand bench, List<FailoverResult> results, Map<String, String> failures, String command, Instant startedAt)
            throws java.io.IOException {
        if (bench.markdown != null) {
            Files.writeString(bench.markdown, FailoverResult.markdown(results, command), StandardCharsets.UTF_8);
        }
        if (bench.json != null) {
            ObjectNode root = Json.MAPPER.createObjectNode();
            root.put("command", command);
            root.put("seed", bench.seed);
            root.put("startedAt", startedAt.toString());
            root.put("writtenAt", Instant.now().toString());
            root.put("availableProcessors", Runtime.getRuntime().availableProcessors());
            root.set("failover", Json.MAPPER.valueToTree(results));
            ArrayNode failed = root.putArray("failures");
            failures.forEach((name, why) -> failed.addObject().put("variant", name).put("error", why));
            Files.writeString(bench.json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root), StandardCharsets.UTF_8);
        }
    }
}
