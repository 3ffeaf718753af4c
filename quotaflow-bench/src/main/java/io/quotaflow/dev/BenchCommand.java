package io.quotaflow.dev;

import io.quotaflow.bench.BaselineRunner;
import io.quotaflow.bench.BenchmarkRunner;
import io.quotaflow.bench.ChaosResult;
import io.quotaflow.bench.ChaosRunner;
import io.quotaflow.bench.ResultTable;
import io.quotaflow.bench.Scenario;
import io.quotaflow.bench.ScenarioResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
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

    @Option(names = "--warmup", paramLabel = "on|off|fresh", defaultValue = "on",
            description = "(i): after the cold run (the first in the JVM), warm up and measure the warm rate; off = the "
                    + "cold run only; fresh = the fresh pipeline JVM's run only (default: ${DEFAULT-VALUE}).")
    String warmup;

    @CommandLine.Mixin
    FailoverBench failover = new FailoverBench();

    @CommandLine.Mixin
    SoakBench soak = new SoakBench();

    @CommandLine.Mixin
    EtaBench eta = new EtaBench();

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
                    line.println(tag + "done: " + ScenarioReports.summary(c));
                } else {
                    ScenarioResult r = runner.run(scenario);
                    results.add(r);
                    line.println(tag + "done: " + ScenarioReports.summary(r));
                }
            } catch (RuntimeException e) {
                failures.put(scenario.name(), String.valueOf(e.getMessage()));
                line.println("[" + scenario.key() + " " + scenario.name() + "] FAILED: " + e.getMessage());
            }
            // written after every scenario, so that an interrupted run keeps what it measured
            ScenarioReports.writeFiles(markdown, json, seed, results, chaosResults, failures, command, startedAt);
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
            refuseUnused("m", "--tickets", "--seed");
            return eta.run(this);
        }
        if (TENANT_SHARES.contains(scenarios.strip().toLowerCase(Locale.ROOT))) {
            refuseUnused("l", "--tickets", "--seed", "--timeout-minutes");
            return AloneBenches.tenantShares(this, out, line);
        }
        if (io.quotaflow.bench.SelfHostedBenchmark.named(scenarios)) {
            refuseUnused("y", "--seed");
            return AloneBenches.selfHosted(this, out, line);
        }
        if (BOUNDS.contains(scenarios.strip().toLowerCase(Locale.ROOT))) {
            refuseUnused("n", "--tickets");
            return AloneBenches.bounds(this, out, line);
        }
        if (FAILOVER.equals(scenarios.strip().toLowerCase(Locale.ROOT))) {
            refuseUnused(FAILOVER, "--tickets", "--seed", "--timeout-minutes");
            return failover.run(this, out, line);
        }
        if (LEAN.equals(scenarios.strip().toLowerCase(Locale.ROOT))) {
            refuseUnused(LEAN, "--tickets", "--seed");
            return AloneBenches.lean(this, out, line);
        }
        if (SOAK.equals(scenarios.strip().toLowerCase(Locale.ROOT))) {
            refuseUnused(SOAK, "--tickets", "--seed");
            return soak.run(this, out, line);
        }
        if (failover.given()) {
            throw new IllegalArgumentException(
                    "--failover-variants, --failover-tpm, --failover-burst and --failover-shape go with --scenario failover only");
        }
        return null;
    }

    /** The options every scenario takes that a bench running alone would ignore: refused, naming what it does take. */
    private static final List<String> COMMON = List.of("--tickets", "--seed", "--timeout-minutes", "--baseline", "--warmup");

    /** Refuses each of {@link #COMMON} given on the command line that {@code scenario} does not use ({@code uses}). */
    private void refuseUnused(String scenario, String... uses) {
        List<String> used = List.of(uses);
        for (String option : COMMON) {
            if (!used.contains(option) && spec.commandLine().getParseResult().hasMatchedOption(option)) {
                throw new IllegalArgumentException(option + " does not apply to --scenario " + scenario + " (it takes "
                        + String.join(", ", used) + ")");
            }
        }
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
}
