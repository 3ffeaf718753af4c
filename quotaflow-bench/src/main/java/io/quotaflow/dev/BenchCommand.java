package io.quotaflow.dev;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.bench.BaselineResult;
import io.quotaflow.bench.BaselineRunner;
import io.quotaflow.bench.BenchmarkRunner;
import io.quotaflow.bench.ChaosResult;
import io.quotaflow.bench.ChaosRunner;
import io.quotaflow.bench.FailoverResult;
import io.quotaflow.bench.FailoverRunner;
import io.quotaflow.bench.FailoverVariant;
import io.quotaflow.bench.ResultTable;
import io.quotaflow.bench.Scenario;
import io.quotaflow.bench.ScenarioFigures;
import io.quotaflow.bench.ScenarioResult;
import io.quotaflow.bench.TenantPlan;
import io.quotaflow.bench.TenantShareResult;
import io.quotaflow.bench.TenantShareRunner;
import io.quotaflow.records.Json;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import io.quotaflow.cli.ExitCodes;
import io.quotaflow.cli.ProgressLine;

/** {@code quotaflow bench}: throughput and correctness figures under fixed provider limits. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        header = "Run benchmark scenarios on fresh in-process brokers and simulators.",
        description = {
                "Runs benchmark scenarios, each on a fresh in-process Kafka broker and",
                "provider simulator:",
                "  a  tpm-binds           500 RPM, 200k TPM, simulator burst 5 s",
                "  b  rpm-binds           60 RPM, 2M TPM (5 000 tickets: about 9 min)",
                "  c  full-minute-bucket  as a, simulator burst 60 s",
                "  d  two-instances       as a, 2 pipeline instances on one API key",
                "  e  fixed-batches-10    a's tickets in fixed batches of 10 (computed)",
                "  f  foreign-tokenizer   as a, but the simulator counts cl100k_base, has an",
                "                         8 192-token context, 0.5 %% of tickets are huge",
                "  g  nightly-job         500 tickets, 500 RPM, 30k TPM, 60 s bucket full",
                "  h  high-tier           10k RPM, 2M TPM, ~2.3 s per call (20 000 tickets)",
                "  i  overhead            unlimited quota, 1 ms model (50 000 tickets): a cold",
                "                         run, then warm-up runs and the warm run (--warmup),",
                "                         then quotaflow run in a fresh JVM (its JVM options",
                "                         from QUOTAFLOW_BENCH_PIPELINE_JVM_OPTS)",
                "  j  interactive-p99     30 interactive tickets into a 5 000 bulk backlog",
                "  k  dlq-replay          40 000 dead letters replayed, --rate 0 and 50/s",
                "f, g and h also run the fixed-batch baseline (4 workers,",
                "groups of 10, a 60 s window of 0.85 x TPM, retry-after + 0-500 ms, 5",
                "tries), on a fresh simulator with the same tickets (h: the first 2 000).",
                "It prints two tables: 429s, lost, duplicates, steady-state and whole-run",
                "use of the binding limit, tickets per busy minute and the ratio to the",
                "baseline, wall time; then tokens per ticket, accuracy, tickets/s (i),",
                "interactive p99 (j) and records/s (k). Exits 1 when a scenario saw a",
                "429 or a duplicate, lost a ticket, or failed (the baseline's own 429s",
                "and losses are figures, not failures).",
                "",
                "  m  eta-accuracy  (only alone: --scenario m) 5 000 bulk tickets; 60 s in,",
                "     GET /tickets/{id} for 10 tickets spread over the queue; each",
                "     estimatedDoneAt against its classifiedAt, on three providers in turn",
                "     (--eta-providers): ours (3k RPM, 400k TPM; target: median error <= 15 %%",
                "     of the time left), slow (w's: cl100k_base, ~2 s calls, 200k TPM,",
                "     headers at admission; target 25 %%) and input (slow, its TPM counting",
                "     the prompt only; target 25 %%). Exit 1 when one is missed.",
                "",
                "  n  bounds  (only alone: --scenario n) 1 000 000 bulk tickets (--tickets)",
                "     published while the provider hangs, in-process (test driver, RocksDB):",
                "     heap after GC vs queue.max-pending, tick times, spill and refill; then",
                "     the provider is back: nothing lost, no duplicates (exit 1 otherwise);",
                "     then the old and new status view and proposal side by side.",
                "",
                "  y  self-hosted  (only alone: --scenario y) an engine saturating at 8",
                "     running calls of 500 ms, refusing beyond 128 (429 overloaded), no",
                "     rate limits or headers; the route with rpm/tpm none and auto, with",
                "     huge numeric limits (rpm 1000000, tpm 100000000) and auto, and the",
                "     baseline: those limits with a fixed 128 in flight: calls/s against",
                "     the engine's most, median and p90 call against an unloaded one,",
                "     overload 429s, whether /status says it looks like an engine; exit 1",
                "     when an auto route is under 90 %% of the most, its median over",
                "     1.5 x, or it is refused.",
                "",
                "  w  slow-provider  (only when named; not part of all)  500 RPM, 200k",
                "     TPM, burst 5 s, cl100k_base counting, 8 192-token context, ~2 s",
                "     calls, rate-limit headers taken when a call is admitted",
                "  x  slow-provider-interactive  (only when named)  j on w's provider",
                "  t  interactive-tail  (only when named)  x with its interactive tickets",
                "     from 92 %% of the backlog's results on: through its last calls",
                "",
                "  chaos  (only when named; not part of all)  600 RPM, 300k TPM, 2 000",
                "         tickets by default. Broker and pipeline run as child processes;",
                "         the pipeline is SIGKILLed at 15, 40 and 65 %% of the tickets and",
                "         restarted with the same state dir, the broker SIGKILLed at 50 %%",
                "         and restarted after 2 s on the same port and data dir. Prints",
                "         lost, duplicated, 429s and recovery seconds per kill (restart to",
                "         first new result; target 10 s). Exits 1 when a ticket was lost",
                "         or duplicated. Child logs go to a temporary directory it prints.",
                "",
                "  failover  (only alone: --scenario failover)  three instances (child",
                "         processes) share six quota scopes (six simulators, 1 000 RPM,",
                "         60k TPM each (--failover-tpm), 5 s buckets (--failover-burst),",
                "         2 400 tickets; --failover-shape slow: (w)'s provider); at 30 %% of",
                "         the tickets the one owning the most scopes is SIGKILLed, for good or",
                "         (+restart) restarted at once. Prints the seconds until each of its",
                "         scopes admits a call again (target 10 s) and until a 10 s window",
                "         holds 90 %% of its key (target 15 s), the six quotas' use over the",
                "         run, before and after the kill, the ratio to the first variant,",
                "         429s, lost and duplicated. --failover-variants picks the settings",
                "         measured (default: before,defaults,before+restart,defaults+restart;",
                "         all = every one). Exits 1 when a ticket was lost or duplicated,",
                "         or a 429 was seen.",
                "",
                "  l  tenant-shares  (only when named alone)  two tenants weighted 3:1 each",
                "         publish 1 500 bulk tickets at once (the light one's three times as",
                "         long), 500 RPM, 300k TPM; prints admitted tokens and classified",
                "         tickets of each while both have work. Exits 1 unless the token",
                "         ratio is 2.6-3.4 with no 429 and nothing dead-lettered.",
                "",
                "  lean  (only when named alone)  tokens per classified ticket (admitted:",
                "         prompt + max_tokens; used) and accuracy on both labels for each",
                "         lever of a lean prompt added in turn to prompt version 1 (short",
                "         ids, short system prompt, lean text, tight max_tokens), on 5 000",
                "         generated tickets (--tickets) and the demo's labelled tickets,",
                "         against an in-process simulator without limits.",
                "  soak  (only alone: --scenario soak)  one pipeline fed at an even rate,",
                "         200 000 tickets an hour (--tickets, --soak-minutes, default 60),",
                "         against a 10k RPM / 2M TPM provider (--soak-rpm, --soak-tpm).",
                "         Every minute: heap after a full GC, RSS, each state store's size",
                "         (disk and memtables) and estimated keys, punctuation times, queue depth. The",
                "         verdict: heap and stores flat within 10 %% from minute 10 on (half",
                "         the run when shorter). Exits 1 when not flat, or a ticket was",
                "         lost or duplicated, or a 429 was seen.",
                "",
                "Flags only: --config and QUOTAFLOW_* variables are not read (but for",
                "QUOTAFLOW_BENCH_PIPELINE_JVM_OPTS, above). Each scenario",
                "fixes its own limits and settings, so that its figures can be compared."},
        exitCodeList = {
                "0:every scenario ran clean",
                "1:a scenario saw a 429 or a duplicate, lost a ticket, or failed",
                "2:usage error (bad option, unknown scenario)"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  ./quotaflow bench --scenario a",
                "  ./quotaflow bench --scenario tpm-binds,two-instances --tickets 2000",
                "  ./quotaflow bench --scenario chaos"})
public final class BenchCommand implements Callable<Integer> {

    /** Extra JVM options of (i)'s fresh pipeline JVM (whitespace-separated, after its heap limit): JIT and GC flags to compare. */
    public static final String PIPELINE_JVM_OPTS_ENV = "QUOTAFLOW_BENCH_PIPELINE_JVM_OPTS";

    /** The names of bench (l), which runs alone. */
    static final java.util.Set<String> TENANT_SHARES = java.util.Set.of("l", "tenant-shares");
    static final java.util.Set<String> BOUNDS = java.util.Set.of("n", "bounds");
    /** The name of the lean-prompt report, which runs alone. */
    static final String LEAN = io.quotaflow.bench.LeanBenchmark.NAME;
    /** The name of the soak scenario, which runs alone. */
    static final String SOAK = io.quotaflow.bench.SoakBenchmark.NAME;
    /** The name of the failover scenario, which runs alone. */
    static final String FAILOVER = "failover";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "LIST", defaultValue = "all",
            description = "Comma-separated scenario keys or names (a,...,k or tpm-binds,..., chaos), or all = a-k "
                    + "(default: ${DEFAULT-VALUE}).")
    String scenarios;

    @Option(names = "--tickets", paramLabel = "N",
            description = "Tickets per scenario (default: " + Scenario.DEFAULT_TICKETS + "; g: " + Scenario.NIGHTLY_TICKETS + ", h: "
                    + Scenario.HIGH_TIER_TICKETS + ", i: " + Scenario.OVERHEAD_TICKETS + ", k: " + Scenario.REPLAY_RECORDS
                    + " dead letters, chaos: " + Scenario.CHAOS_DEFAULT_TICKETS + ").")
    Integer tickets;

    @Option(names = "--baseline", paramLabel = "WHICH", defaultValue = "auto",
            description = "Which scenarios also run the fixed-batch baseline: auto = f, g, h; all = every "
                    + "pipeline scenario with a limited quota (a-d, f-h); off = none (default: ${DEFAULT-VALUE}).")
    String baseline;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "42", description = "Generator seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Also write the table as Markdown, with footnotes.")
    Path markdown;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the raw results as JSON.")
    Path json;

    @Option(names = "--failover-variants", paramLabel = "LIST",
            description = "With --scenario failover: the settings measured, comma-separated (before, defaults, defaults-no-credit, "
                    + "defaults-lag-100, static-10s, "
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

    @Option(names = "--warmup", paramLabel = "on|off|fresh", defaultValue = "on",
            description = "(i): after the cold run (the first in the JVM), warm up and measure the warm rate; off = the "
                    + "cold run only; fresh = the fresh pipeline JVM's run only (default: ${DEFAULT-VALUE}).")
    String warmup;

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

    @Option(names = "--eta-providers", paramLabel = "LIST", defaultValue = "ours,slow,input",
            description = "With --scenario m: the provider shapes served by, in turn (ours: counts as the client does, 3k RPM, 400k "
                    + "TPM; slow: (w)'s provider, cl100k_base, ~2 s calls, 200k TPM; input: slow, its TPM counting the prompt only; default: "
                    + "${DEFAULT-VALUE}).")
    String etaProviders;

    @Option(names = "--timeout-minutes", paramLabel = "M", defaultValue = "30",
            description = "Give up on a scenario after this many minutes (default: ${DEFAULT-VALUE}).")
    long timeoutMinutes;

    @Override
    public Integer call() throws Exception {
        if (tickets != null && tickets < 1) {
            throw new IllegalArgumentException("--tickets must be >= 1");
        }
        if (timeoutMinutes < 1) {
            throw new IllegalArgumentException("--timeout-minutes must be >= 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean terminal = ProgressLine.isTerminal();
        ProgressLine line = new ProgressLine(err, terminal);
        Integer alone = runAlone(out, line);
        if (alone != null) {
            return alone;
        }
        List<Scenario> selected = withBaseline(Scenario.select(scenarios, tickets), baseline);
        BenchmarkRunner runner = new BenchmarkRunner(
                BenchmarkRunner.Options.defaults(seed).withTimeout(Duration.ofMinutes(timeoutMinutes))
                        .withProgressInterval(Duration.ofMillis(terminal ? 250 : 5_000)).withWarmUp(warmUp())
                        .withFreshOnly("fresh".equalsIgnoreCase(warmup.strip()))
                        .withPipelineJvmOptions(System.getenv(PIPELINE_JVM_OPTS_ENV)),
                new BenchmarkRunner.Listener() {
                    @Override
                    public void phase(Scenario scenario, String message) {
                        line.println("[" + scenario.key() + " " + scenario.name() + "] " + message);
                    }

                    @Override
                    public void baselineProgress(Scenario scenario, BaselineRunner.Progress p) {
                        line.update(String.format(Locale.ROOT,
                                "[%s %s baseline] %6.1f s  classified %d/%d  lost %d  calls %d  429s %d",
                                scenario.key(), scenario.name(), p.elapsedMs() / 1000.0, p.classified(), p.tickets(), p.lost(),
                                p.calls(), p.http429()));
                    }

                    @Override
                    public void progress(Scenario scenario, BenchmarkRunner.Progress p) {
                        line.update(String.format(Locale.ROOT,
                                "[%s %s] %6.1f s  classified %d/%d  dead-lettered %d  calls %d  429s %d  tokens %,d",
                                scenario.key(), scenario.name(), p.elapsedMs() / 1000.0, p.classified(), p.expected(),
                                p.deadLettered(), p.calls(), p.http429(), p.tokensAdmitted()));
                    }
                });

        Instant startedAt = Instant.now();
        String command = ("quotaflow " + String.join(" ", spec.commandLine().getParseResult().originalArgs())).strip();
        List<ScenarioResult> results = new ArrayList<>();
        List<ChaosResult> chaosResults = new ArrayList<>();
        Map<String, String> failures = new LinkedHashMap<>();
        for (Scenario scenario : selected) {
            String tag = scenario.isChaos() ? "[" + scenario.key() + "] " : "[" + scenario.key() + " " + scenario.name() + "] ";
            line.println(tag + scenario.description() + ", " + scenario.tickets() + " tickets");
            try {
                if (scenario.isChaos()) {
                    ChaosResult c = chaosRunner(line, terminal).run(scenario);
                    chaosResults.add(c);
                    results.add(c.toScenarioResult());
                    line.println(tag + "done: " + summary(c));
                } else {
                    ScenarioResult r = runner.run(scenario);
                    results.add(r);
                    line.println(tag + "done: " + summary(r));
                }
            } catch (RuntimeException e) {
                failures.put(scenario.name(), String.valueOf(e.getMessage()));
                line.println("[" + scenario.key() + " " + scenario.name() + "] FAILED: " + e.getMessage());
            }
            // written after every scenario, so that an interrupted run keeps what it measured
            writeFiles(results, chaosResults, failures, command, startedAt);
        }
        line.clear();

        out.println();
        out.print(ResultTable.text(results));
        for (ChaosResult c : chaosResults) {
            out.println();
            out.print(c.report());
        }
        failures.forEach((name, why) -> out.println(name + ": FAILED: " + why));
        out.flush();

        if (markdown != null) {
            out.println("Markdown table written to " + markdown);
        }
        if (json != null) {
            out.println("JSON results written to " + json);
        }
        out.flush();
        // the chaos row is judged by what it is about: nothing lost, nothing duplicated
        boolean ok = failures.isEmpty()
                && results.stream().filter(r -> !Scenario.CHAOS.equals(r.key())).allMatch(ScenarioResult::clean)
                && chaosResults.stream().allMatch(ChaosResult::passed);
        return ok ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    private boolean warmUp() {
        return switch (warmup.strip().toLowerCase(Locale.ROOT)) {
            case "on", "fresh" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException("--warmup must be on, off or fresh");
        };
    }

    /** Bench (l) or (m) when selected: each runs alone, on its own broker and simulator; null for the others. */
    private Integer runAlone(PrintWriter out, ProgressLine line) throws Exception {
        if (io.quotaflow.bench.EtaAccuracyBenchmark.named(scenarios)) {
            return etaAccuracy();
        }
        if (TENANT_SHARES.contains(scenarios.strip().toLowerCase(Locale.ROOT))) {
            return tenantShares(out, line);
        }
        if (io.quotaflow.bench.SelfHostedBenchmark.named(scenarios)) {
            return selfHosted(out, line);
        }
        if (BOUNDS.contains(scenarios.strip().toLowerCase(Locale.ROOT))) {
            return bounds(out, line);
        }
        if (FAILOVER.equals(scenarios.strip().toLowerCase(Locale.ROOT))) {
            return failover(out, line);
        }
        if (LEAN.equals(scenarios.strip().toLowerCase(Locale.ROOT))) {
            return lean(out, line);
        }
        if (SOAK.equals(scenarios.strip().toLowerCase(Locale.ROOT))) {
            return soak(out, line);
        }
        if (failoverOptionsGiven()) {
            throw new IllegalArgumentException(
                    "--failover-variants, --failover-tpm, --failover-burst and --failover-shape go with --scenario failover only");
        }
        return null;
    }

    /** Bench (n): memory and tick time bounded through an outage with a large backlog (exit 1 if a ticket was lost or answered twice). */
    private int bounds(PrintWriter out, ProgressLine line) {
        int n = tickets == null ? io.quotaflow.bench.BoundsBenchmark.DEFAULT_TICKETS : tickets;
        var r = new io.quotaflow.bench.BoundsBenchmark(io.quotaflow.bench.BoundsBenchmark.Options.of(n),
                m -> line.println("[n bounds] " + m)).run();
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        return r.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** Bench (y): a self-hosted engine at its knee, configured as one or not, against a fixed 128 (exit 1 when auto misses its marks). */
    private int selfHosted(PrintWriter out, ProgressLine line) {
        var r = new io.quotaflow.bench.SelfHostedBenchmark(seed, m -> line.println("[y self-hosted] " + m)).run();
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        return r.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** The lean-prompt report: tokens per ticket and accuracy per lever (exit 1 if a ticket went unclassified). */
    private int lean(PrintWriter out, ProgressLine line) {
        int n = tickets == null ? io.quotaflow.bench.LeanBenchmark.DEFAULT_TICKETS : tickets;
        var r = new io.quotaflow.bench.LeanBenchmark(n, seed, m -> line.println("[lean] " + m)).run();
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        return r.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** The soak scenario: an even feed for {@code --soak-minutes}, sampled every minute, then the verdict. */
    private int soak(PrintWriter out, ProgressLine line) throws java.io.IOException {
        if (soakMinutes < 1) {
            throw new IllegalArgumentException("--soak-minutes must be >= 1");
        }
        var options = io.quotaflow.bench.SoakBenchmark.Options.of(soakMinutes, tickets, soakRpm, soakTpm, seed);
        String retention = soakRetention.strip().toLowerCase(Locale.ROOT);
        if (!retention.equals("auto")) {
            options = options.withRetention(retention.equals("default") ? null : soakRetention());
        }
        var r = new io.quotaflow.bench.SoakBenchmark(options, m -> line.println("[soak] " + m)).run();
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        if (markdown != null) {
            Files.writeString(markdown, "```\n" + r.report() + "```\n", StandardCharsets.UTF_8);
        }
        if (json != null) {
            ObjectNode root = Json.MAPPER.createObjectNode();
            root.put("command", ("quotaflow " + String.join(" ", spec.commandLine().getParseResult().originalArgs())).strip());
            root.put("seed", seed);
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
            Files.writeString(json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root), StandardCharsets.UTF_8);
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

    /** Whether an option of the failover scenario alone was given. */
    private boolean failoverOptionsGiven() {
        return failoverVariants != null || failoverTpm != null || failoverBurst != null || failoverShape != null;
    }

    /** The failover scenario: each variant on fresh infrastructure, the first one the baseline of the ratios. */
    private int failover(PrintWriter out, ProgressLine line) throws java.io.IOException {
        List<FailoverVariant> variants = FailoverVariant.select(failoverVariants);
        FailoverRunner.Options options = FailoverRunner.Options.defaults(seed).withTimeout(Duration.ofMinutes(timeoutMinutes))
                .withProgressInterval(Duration.ofMillis(ProgressLine.isTerminal() ? 250 : 5_000));
        if (tickets != null) {
            options = options.withTickets(tickets);
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
        String command = ("quotaflow " + String.join(" ", spec.commandLine().getParseResult().originalArgs())).strip();
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
            writeFailoverFiles(results, failures, command, startedAt);
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

    private void writeFailoverFiles(List<FailoverResult> results, Map<String, String> failures, String command, Instant startedAt)
            throws java.io.IOException {
        if (markdown != null) {
            Files.writeString(markdown, FailoverResult.markdown(results, command), StandardCharsets.UTF_8);
        }
        if (json != null) {
            ObjectNode root = Json.MAPPER.createObjectNode();
            root.put("command", command);
            root.put("seed", seed);
            root.put("startedAt", startedAt.toString());
            root.put("writtenAt", Instant.now().toString());
            root.put("availableProcessors", Runtime.getRuntime().availableProcessors());
            root.set("failover", Json.MAPPER.valueToTree(results));
            ArrayNode failed = root.putArray("failures");
            failures.forEach((name, why) -> failed.addObject().put("variant", name).put("error", why));
            Files.writeString(json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root), StandardCharsets.UTF_8);
        }
    }

    /**
     * Bench (m), run alone: ETA accuracy 60 s into a bulk backlog, on each provider shape of
     * {@code --eta-providers} in turn (exit 1 when a median error misses its target).
     */
    private int etaAccuracy() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        boolean met = true;
        for (var provider : etaProviderList(etaProviders)) {
            var options = io.quotaflow.bench.EtaAccuracyBenchmark.Options.defaults(seed).withProvider(provider);
            if (tickets != null) {
                options = options.withTickets(tickets);
            }
            var result = new io.quotaflow.bench.EtaAccuracyBenchmark(options, m -> {
                err.println("[m eta-accuracy] " + m);
                err.flush();
            }).run();
            spec.commandLine().getOut().print(result.report());
            spec.commandLine().getOut().flush();
            met &= result.metTarget();
        }
        return met ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** {@code ours,slow,input}: the providers of bench (m), in the order named. */
    static List<io.quotaflow.bench.EtaAccuracyBenchmark.Provider> etaProviderList(String names) {
        List<io.quotaflow.bench.EtaAccuracyBenchmark.Provider> out = new java.util.ArrayList<>();
        for (String name : names.split(",")) {
            switch (name.strip().toLowerCase(Locale.ROOT)) {
                case "ours" -> out.add(io.quotaflow.bench.EtaAccuracyBenchmark.Provider.ours());
                case "slow" -> out.add(io.quotaflow.bench.EtaAccuracyBenchmark.Provider.slow());
                case "input" -> out.add(io.quotaflow.bench.EtaAccuracyBenchmark.Provider.input());
                default -> throw new IllegalArgumentException("--eta-providers: unknown provider '" + name.strip() + "' (ours, slow, input)");
            }
        }
        return out;
    }

    /** Bench (l): tenant shares by weight, on its own broker and simulator. */
    private int tenantShares(PrintWriter out, ProgressLine line) {
        int each = tickets == null ? TenantShareRunner.DEFAULT_TICKETS_EACH : tickets;
        TenantShareResult r = new TenantShareRunner(seed, Duration.ofMinutes(timeoutMinutes),
                m -> line.println("[l tenant-shares] " + m)).run(TenantPlan.benchL(each));
        line.clear();
        out.println();
        out.print(r.report());
        out.flush();
        return r.passed() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    private ChaosRunner chaosRunner(ProgressLine line, boolean terminal) {
        return new ChaosRunner(ChaosRunner.Options.defaults(seed).withTimeout(Duration.ofMinutes(timeoutMinutes))
                .withProgressInterval(Duration.ofMillis(terminal ? 250 : 5_000)), new ChaosRunner.Listener() {
            @Override
            public void phase(String message) {
                line.println("[" + Scenario.CHAOS + "] " + message);
            }

            @Override
            public void progress(ChaosRunner.Progress p) {
                line.update(String.format(Locale.ROOT, "[%s] %6.1f s  published %d/%d  classified %d  dead-lettered %d  calls %d  "
                                + "429s %d  %s", Scenario.CHAOS, p.elapsedMs() / 1000.0, p.published(), p.expected(), p.classified(),
                        p.deadLettered(), p.calls(), p.http429(), p.waitingFor()));
            }
        });
    }

    private void writeFiles(List<ScenarioResult> results, List<ChaosResult> chaosResults, Map<String, String> failures,
                            String command, Instant startedAt) throws java.io.IOException {
        if (markdown != null) {
            StringBuilder md = new StringBuilder(ResultTable.markdown(results, seed, command));
            for (ChaosResult c : chaosResults) {
                md.append('\n').append(c.markdown());
            }
            Files.writeString(markdown, md.toString(), StandardCharsets.UTF_8);
        }
        if (json != null) {
            ObjectNode root = Json.MAPPER.createObjectNode();
            root.put("command", command);
            root.put("seed", seed);
            root.put("startedAt", startedAt.toString());
            root.put("writtenAt", Instant.now().toString());
            root.put("java", System.getProperty("java.version"));
            root.put("availableProcessors", Runtime.getRuntime().availableProcessors());
            root.set("results", Json.MAPPER.valueToTree(results));
            if (!chaosResults.isEmpty()) {
                root.set("chaos", Json.MAPPER.valueToTree(chaosResults));
            }
            ArrayNode failed = root.putArray("failures");
            failures.forEach((name, why) -> failed.addObject().put("scenario", name).put("error", why));
            Files.writeString(json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root), StandardCharsets.UTF_8);
        }
    }

    static String summary(ChaosResult c) {
        return String.format(Locale.ROOT, "%d tickets: %d lost, %d duplicated, %d classified, %d dead-lettered, %d × 429; %d kills; "
                        + "recovery %s; %s", c.tickets(), c.lost(), c.duplicated(), c.accounting().classified(),
                c.accounting().deadLettered(), c.http429(), c.disruptions().size(), c.recoverySummary(),
                ResultTable.duration(c.wallTimeMs()));
    }

    /**
     * The scenarios with the baseline as {@code --baseline} says: {@code auto} leaves each scenario's
     * own (f, g, h), {@code all} gives every pipeline scenario with a limited quota one on all its
     * tickets where it had none, {@code off} removes them.
     */
    static List<Scenario> withBaseline(List<Scenario> selected, String which) {
        String w = which == null ? "auto" : which.strip().toLowerCase(Locale.ROOT);
        return switch (w) {
            case "auto" -> selected;
            case "off", "none" -> selected.stream().map(s -> s.withBaselineTickets(0)).toList();
            case "all" -> selected.stream()
                    .map(s -> s.baselineApplies() && s.baselineTickets() == 0 ? s.withBaselineTickets(Scenario.ALL) : s).toList();
            default -> throw new IllegalArgumentException("--baseline must be auto, all or off");
        };
    }

    static String summary(ScenarioResult r) {
        if (r.computed()) {
            return String.format(Locale.ROOT, "%d calls of up to %d tickets, %.1f tokens/ticket admitted, %.1f used",
                    r.calls(), Scenario.FIXED_BATCH_ITEMS, r.tokensPerTicketAdmitted(), r.tokensPerTicketUsed());
        }
        ScenarioFigures f = r.figures();
        if (f.replay() != null) {
            return replaySummary(f.replay());
        }
        String use = r.steadyState() != null && r.steadyState().measured()
                ? String.format(Locale.ROOT, "%.1f %% of %s (%s)", r.steadyState().use() * 100, r.binding(), r.steadyState().describeWindow())
                : "steady-state use not measured";
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%d tickets: %d classified, %d dead-lettered %s, %d duplicates; "
                        + "%d calls (%.1f tickets/call), %d × 429; %s; %.1f tokens/ticket admitted, %.1f used; %s; accuracy %s "
                        + "category, %s urgency",
                r.tickets(), r.classified(), r.deadLettered(), r.deadLettersByKind(), r.duplicates(), r.calls(), r.ticketsPerCall(),
                r.http429(), use, r.tokensPerTicketAdmitted(), r.tokensPerTicketUsed(), ResultTable.duration(r.wallTimeMs()),
                ResultTable.percent(r.categoryAccuracy()), ResultTable.percent(r.urgencyAccuracy())));
        appendFigures(sb, f);
        return sb.toString();
    }

    private static String replaySummary(ScenarioFigures.Replay p) {
        return String.format(Locale.ROOT, "%d dead letters: %d replayed in %s (%,.0f records/s, %s), %d back on their origin "
                        + "topics, %d duplicated; default rate: %d in %s (%.1f records/s)", p.deadLetters(), p.replayed(),
                ResultTable.duration(p.elapsedMs()), p.recordsPerSecond(), p.outcome(), p.found(), p.duplicates(),
                p.defaultRateReplayed(), ResultTable.duration(p.defaultRateElapsedMs()), p.defaultRateRecordsPerSecond());
    }

    /** The figures a scenario kind has: whole-run use, busy-minute rate, overhead, interactive latency, baseline. */
    private static void appendFigures(StringBuilder sb, ScenarioFigures f) {
        if (f.wholeRun() != null && f.wholeRun().measured()) {
            sb.append(String.format(Locale.ROOT, "; whole run %.1f %% of feasible", f.wholeRun().use() * 100));
        }
        if (f.ticketsPerBusyMinute() != null) {
            sb.append(String.format(Locale.ROOT, "; %,.0f tickets per busy minute", f.ticketsPerBusyMinute()));
        }
        if (f.ticketsPerSecond() != null) {
            sb.append(String.format(Locale.ROOT, "; %,.0f tickets/s (%s after the last publish)", f.ticketsPerSecond(),
                    f.drainTicketsPerSecond() == null ? "–" : String.format(Locale.ROOT, "%,.0f", f.drainTicketsPerSecond())));
        }
        if (f.interactive() != null && f.interactive().tickets() > 0) {
            sb.append(String.format(Locale.ROOT, "; interactive p50 %.2f s, p99 %.2f s, max %.2f s", f.interactive().p50Ms() / 1000.0,
                    f.interactive().p99Ms() / 1000.0, f.interactive().maxMs() / 1000.0));
        }
        BaselineResult b = f.baseline();
        if (b != null) {
            sb.append(String.format(Locale.ROOT, "; baseline: %d classified, %d lost, %d × 429, %s, %s tickets per busy minute%s",
                    b.classified(), b.lost(), b.http429(), ResultTable.duration(b.busyMs()),
                    b.ticketsPerBusyMinute() == null ? "–" : String.format(Locale.ROOT, "%,.0f", b.ticketsPerBusyMinute()),
                    f.baselineRatio() == null ? "" : String.format(Locale.ROOT, " (quotaflow %.2f×)", f.baselineRatio())));
        }
    }
}
