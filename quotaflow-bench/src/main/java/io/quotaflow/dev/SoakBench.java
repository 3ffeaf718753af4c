package io.quotaflow.dev;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.cli.ExitCodes;
import io.quotaflow.cli.ProgressLine;
import io.quotaflow.records.Json;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Locale;

/** {@code quotaflow bench --scenario soak}: its options (a mixin of {@link BenchCommand}), its run and its files. */
final class SoakBench {

    @Option(names = "--soak-minutes", paramLabel = "M", defaultValue = "" + io.quotaflow.bench.SoakBenchmark.DEFAULT_MINUTES,
            description = "With --scenario soak: minutes of publishing at an even rate (default: ${DEFAULT-VALUE}; the tickets "
                    + "default to 200 000 an hour pro rata).")
    int soakMinutes;

    @Option(names = "--soak-rpm", paramLabel = "N", defaultValue = "" + io.quotaflow.bench.SoakBenchmark.DEFAULT_RPM,
            description = "With --scenario soak: the provider's requests per minute (default: ${DEFAULT-VALUE}).")
    long soakRpm;

    @Option(names = "--soak-tpm", paramLabel = "N", defaultValue = "" + io.quotaflow.bench.SoakBenchmark.DEFAULT_TPM,
            description = "With --scenario soak: the provider's tokens per minute (default: ${DEFAULT-VALUE}).")
    long soakTpm;

    @Option(names = "--soak-retention", paramLabel = "DURATION|auto|default", defaultValue = "auto",
            description = "With --scenario soak: status.retention and cache.ttl of the pipeline (default: ${DEFAULT-VALUE} = 5m, or "
                    + "half the settle mark in a run shorter than 20 minutes, so the stores reach their steady state before it; "
                    + "default = the configuration's 1h and 24h).")
    String soakRetention;

    /** The soak scenario: an even feed for {@code --soak-minutes}, sampled every minute, then the verdict. */
    int run(BenchCommand bench, PrintWriter out, ProgressLine line) throws java.io.IOException {
        if (soakMinutes < 1) {
            throw new IllegalArgumentException("--soak-minutes must be >= 1");
        }
        var options = io.quotaflow.bench.SoakBenchmark.Options.of(soakMinutes, bench.tickets, soakRpm, soakTpm, bench.seed);
        String retention = soakRetention.strip().toLowerCase(Locale.ROOT);
        if (!retention.equals("auto")) {
            options = options.withRetention(retention.equals("default") ? null : soakRetention());
        }
        var r = new io.quotaflow.bench.SoakBenchmark(options, m -> line.println("[soak] " + m)).run();
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        if (bench.markdown != null) {
            Files.writeString(bench.markdown, "```\n" + r.report() + "```\n", StandardCharsets.UTF_8);
        }
        if (bench.json != null) {
            ObjectNode root = Json.MAPPER.createObjectNode();
            root.put("command", ("quotaflow " + String.join(" ", bench.spec.commandLine().getParseResult().originalArgs())).strip());
            root.put("seed", bench.seed);
            root.put("minutes", soakMinutes);
            root.put("tickets", r.options().tickets());
            root.put("rpm", soakRpm);
            root.put("tpm", soakTpm);
            root.put("availableProcessors", Runtime.getRuntime().availableProcessors());
            root.set("samples", Json.MAPPER.valueToTree(r.samples()));
            root.set("verdicts", Json.MAPPER.valueToTree(r.verdicts()));
            root.put("lost", r.lost());
            root.put("duplicates", r.duplicates());
            root.put("http429", r.http429());
            root.put("clean", r.clean());
            Files.writeString(bench.json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root), StandardCharsets.UTF_8);
        }
        return r.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** {@code --soak-retention}: {@code 5m}, {@code 90s}, {@code 1h}. */
    private java.time.Duration soakRetention() {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)([smh])").matcher(soakRetention.strip());
        if (!m.matches() || Long.parseLong(m.group(1)) < 1) {
            throw new IllegalArgumentException("--soak-retention must be like 90s, 5m or 1h, or default");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }
}
