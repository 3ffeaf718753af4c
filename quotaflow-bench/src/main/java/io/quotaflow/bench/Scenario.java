package io.quotaflow.bench;

import io.quotaflow.simulator.SimTokenizer;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * One benchmark scenario: the provider's limits and shape, how many pipeline instances share its
 * key, how many tickets go through, what is measured, and whether the fixed-batch baseline runs as
 * a baseline on the same tickets.
 *
 * @param key             short selector ({@code a}, {@code b}, ...)
 * @param name            the fixed name used in tables and JSON
 * @param description     one line for humans
 * @param tickets         tickets to publish (for {@link Kind#DLQ_REPLAY}: dead letters to replay; for
 *                        {@link Kind#INTERACTIVE}: the bulk backlog, the interactive tickets come on top)
 * @param rpm             the simulator's requests per minute, and the pipeline's {@code quota.rpm}
 * @param tpm             the simulator's tokens per minute, and the pipeline's {@code quota.tpm}
 * @param simBurstSeconds the simulator's bucket capacity in seconds of refill
 * @param instances       pipeline instances sharing the application id and the API key
 * @param binding         the limit the scenario is designed to bind
 * @param estimateOnly    computed offline (no broker, no pipeline): the fixed-batches comparison row
 * @param kind            what the scenario measures
 * @param shape           the provider's shape (tokenizer, context, start level, latency) and the ticket mix
 * @param baselineTickets how many of the tickets (a prefix) the {@link BaselineRunner} classifies on a fresh
 *                        simulator of the same shape after the pipeline's run; 0 = no baseline,
 *                        {@link #ALL} = every ticket
 * @param interactiveFrom for {@link Kind#INTERACTIVE}: the share of the bulk backlog classified before the first
 *                        interactive ticket is published; 0 = once the first result is out
 */
public record Scenario(String key, String name, String description, int tickets, long rpm, long tpm, double simBurstSeconds,
                       int instances, Binding binding, boolean estimateOnly, Kind kind, ScenarioShape shape, int baselineTickets,
                       double interactiveFrom) {

    /** What a scenario measures. */
    public enum Kind {
        /** Publish every ticket at once and classify them: quota use, 429s, losses, duplicates, tickets per busy minute. */
        PIPELINE,
        /** As {@link #PIPELINE} with an unlimited quota and a 1 ms model: the pipeline's own tickets per second. */
        OVERHEAD,
        /** A bulk backlog, then interactive tickets one by one: their time from publish to result. */
        INTERACTIVE,
        /** Dead letters written to {@code tickets.dlq} and replayed with {@code DeadLetterReplayer}: records per second. */
        DLQ_REPLAY
    }

    public static final int DEFAULT_TICKETS = 5_000;
    /** Key and name of the chaos scenario. */
    public static final String CHAOS = "chaos";
    /** Tickets of the chaos scenario unless {@code --tickets} says otherwise. */
    public static final int CHAOS_DEFAULT_TICKETS = 2_000;
    /** Items per call of the fixed-batch comparison. */
    public static final int FIXED_BATCH_ITEMS = 10;
    /** {@link #baselineTickets()}: every ticket. */
    public static final int ALL = Integer.MAX_VALUE;
    /** (g): the seed's nightly job. */
    public static final int NIGHTLY_TICKETS = 500;
    /** (h): enough for a steady-state window of about a minute and a half at 2 M TPM. */
    public static final int HIGH_TIER_TICKETS = 20_000;
    /** (h): the baseline classifies this prefix (it is latency-bound: 4 calls in flight). */
    public static final int HIGH_TIER_BASELINE_TICKETS = 2_000;
    /** (i): enough for a run of 20 s or more at several thousand tickets a second. */
    public static final int OVERHEAD_TICKETS = 50_000;
    /** (t): the share of the backlog, in percent, classified before its interactive tickets start. */
    public static final int TAIL_FROM_PERCENT = 92;
    /** (j): interactive tickets published into the bulk backlog, one every {@link #INTERACTIVE_SPACING_MS}. */
    public static final int INTERACTIVE_TICKETS = 30;
    public static final long INTERACTIVE_SPACING_MS = 1_000;
    /** (k): dead letters replayed. */
    public static final int REPLAY_RECORDS = 40_000;
    /** (k): dead letters replayed paced at {@code --rate} 50, from a second replay group. */
    public static final int REPLAY_DEFAULT_RATE_RECORDS = 500;
    /** (w) and (x): cl100k_base, an 8 192-token context, about 2 s a call of ten (0.5 s of one), headers taken at admission. */
    public static final ScenarioShape SLOW_PROVIDER = ScenarioShape.DEFAULT.withTokenizer(SimTokenizer.CL100K_BASE)
            .withContextTokens(8_192).withLatency(350, 10, 0.2);

    public Scenario {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(binding, "binding");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(shape, "shape");
        if (tickets < 1) {
            throw new IllegalArgumentException("tickets must be >= 1: " + tickets);
        }
        boolean noProvider = kind == Kind.DLQ_REPLAY;
        if ((!noProvider && (rpm < 1 || tpm < 1)) || !(simBurstSeconds > 0 && simBurstSeconds <= 60) || instances < 1
                || baselineTickets < 0 || !(interactiveFrom >= 0 && interactiveFrom < 1)) {
            throw new IllegalArgumentException("invalid scenario " + name + ": rpm=" + rpm + " tpm=" + tpm + " burst="
                    + simBurstSeconds + " instances=" + instances + " baselineTickets=" + baselineTickets + " interactiveFrom=" + interactiveFrom);
        }
    }

    /** A scenario whose interactive tickets, if any, start once the first result is out. */
    public Scenario(String key, String name, String description, int tickets, long rpm, long tpm, double simBurstSeconds,
                    int instances, Binding binding, boolean estimateOnly, Kind kind, ScenarioShape shape, int baselineTickets) {
        this(key, name, description, tickets, rpm, tpm, simBurstSeconds, instances, binding, estimateOnly, kind, shape, baselineTickets, 0);
    }

    /** A pipeline scenario with the default shape and no baseline (the original ten fields). */
    public Scenario(String key, String name, String description, int tickets, long rpm, long tpm, double simBurstSeconds,
                    int instances, Binding binding, boolean estimateOnly) {
        this(key, name, description, tickets, rpm, tpm, simBurstSeconds, instances, binding, estimateOnly, Kind.PIPELINE,
                ScenarioShape.DEFAULT, 0);
    }

    /** (a) TPM binds: 500 RPM, 200 000 TPM, simulator burst 5 s, one instance. */
    public static Scenario tpmBinds(int tickets) {
        return new Scenario("a", "tpm-binds", "500 RPM, 200k TPM, simulator burst 5 s, 1 instance", tickets, 500, 200_000, 5, 1,
                Binding.TPM, false);
    }

    /** (b) RPM binds: 60 RPM, 2 000 000 TPM. At ten tickets a call that is ~600 tickets a minute. */
    public static Scenario rpmBinds(int tickets) {
        return new Scenario("b", "rpm-binds", "60 RPM, 2M TPM, simulator burst 5 s, 1 instance", tickets, 60, 2_000_000, 5, 1,
                Binding.RPM, false);
    }

    /** (c) As (a), but the simulator lets a full minute of quota accumulate (burst 60 s). */
    public static Scenario fullMinuteBucket(int tickets) {
        return new Scenario("c", "full-minute-bucket", "as (a), simulator burst 60 s", tickets, 500, 200_000, 60, 1,
                Binding.TPM, false);
    }

    /** (d) As (a), with two pipeline instances on one key. */
    public static Scenario twoInstances(int tickets) {
        return new Scenario("d", "two-instances", "as (a), 2 instances on one key", tickets, 500, 200_000, 5, 2,
                Binding.TPM, false);
    }

    /** (e) Tokens per ticket of (a)'s tickets cut into fixed batches of ten: computed, not run. */
    public static Scenario fixedBatches10(int tickets) {
        return new Scenario("e", "fixed-batches-10", "(a)'s tickets in fixed batches of " + FIXED_BATCH_ITEMS + ", computed",
                tickets, 500, 200_000, 5, 1, Binding.TPM, true);
    }

    /**
     * (f) A provider that is not what the client assumes: the simulator counts with cl100k_base while
     * the pipeline counts o200k_base (gpt-4o-mini), its context window is 8 192 tokens (the pipeline
     * assumes 128 000), and 0.5 % of the tickets are huge (40 000–60 000 characters, far over that
     * window). 500 RPM, 200 000 TPM, simulator burst 5 s. Baseline: every ticket.
     */
    public static Scenario foreignTokenizer(int tickets) {
        return new Scenario("f", "foreign-tokenizer", "500 RPM, 200k TPM, burst 5 s; sim counts cl100k_base, 8k context, "
                + "0.5 % huge tickets", tickets, 500, 200_000, 5, 1, Binding.TPM, false, Kind.PIPELINE,
                ScenarioShape.DEFAULT.withTokenizer(SimTokenizer.CL100K_BASE).withContextTokens(8_192).withHugeShare(0.005), ALL);
    }

    /**
     * (g) The seed's nightly job: 500 tickets, 500 RPM, 30 000 TPM, a full-minute bucket that starts
     * full. Baseline: every ticket; the figure is tickets per busy minute against the baseline's.
     */
    public static Scenario nightlyJob(int tickets) {
        return new Scenario("g", "nightly-job", "500 RPM, 30k TPM, burst 60 s starting full", tickets, 500, 30_000, 60, 1,
                Binding.TPM, false, Kind.PIPELINE, ScenarioShape.DEFAULT.withStartLevel(1.0), ALL);
    }

    /**
     * (h) High tier: 10 000 RPM, 2 000 000 TPM, burst 5 s, with a realistic latency (2 000 ms + 2 ms
     * per completion token ±20 %, about 2.3 s for a call of ten tickets). Baseline: the first
     * {@value #HIGH_TIER_BASELINE_TICKETS} tickets.
     */
    public static Scenario highTier(int tickets) {
        return new Scenario("h", "high-tier", "10k RPM, 2M TPM, burst 5 s, ~2.3 s per call of 10", tickets, 10_000, 2_000_000, 5,
                1, Binding.TPM, false, Kind.PIPELINE, ScenarioShape.DEFAULT.withLatency(2_000, 2, 0.2),
                HIGH_TIER_BASELINE_TICKETS);
    }

    /**
     * (i) Pipeline overhead: a quota nothing reaches (10 000 000 RPM, 2 000 000 000 TPM) and a 1 ms
     * model, so the figure is what the pipeline itself does on this machine, in tickets per second.
     * The simulator counts tokens by characters: a real provider's tokenizer does not run on our
     * cores, and on this 2-core machine the simulator's o200k count of every prompt took a tenth of
     * the CPU the pipeline is measured on (the pipeline itself still tokenizes with o200k). For the
     * same reason its model answers every ticket with a fixed label instead of running the keyword
     * classifier (a sixth of the CPU of the run), so (i) reports no accuracy. The run is measured
     * after warm-up runs ({@link WarmUp}), and says where its CPU went ({@link CpuUse}).
     */
    public static Scenario overhead(int tickets) {
        return new Scenario("i", "overhead", "unlimited quota (10M RPM, 2G TPM), 1 ms model", tickets, 10_000_000,
                2_000_000_000, 5, 1, Binding.TPM, false, Kind.OVERHEAD,
                ScenarioShape.DEFAULT.withLatency(1, 0, 0).withTokenizer(SimTokenizer.CHARS).withFixedAnswers(), 0);
    }

    /**
     * (j) Interactive latency: a bulk backlog of {@code tickets} (1 000 RPM, 400 000 TPM, burst 5 s:
     * a few minutes of work), then, once the first results are out, {@value #INTERACTIVE_TICKETS}
     * interactive tickets one every {@value #INTERACTIVE_SPACING_MS} ms; the figure is their time from
     * publish to result.
     */
    public static Scenario interactive(int tickets) {
        return new Scenario("j", "interactive-p99", "1k RPM, 400k TPM, burst 5 s; " + INTERACTIVE_TICKETS
                + " interactive into a bulk backlog", tickets, 1_000, 400_000, 5, 1, Binding.TPM, false, Kind.INTERACTIVE,
                ScenarioShape.DEFAULT, 0);
    }

    /**
     * (w) Whole-run use on a slow provider shaped like an external emulator: 500 RPM, 200 000 TPM, a
     * bucket holding 5 s, an 8 192-token context, cl100k_base counting, about 2 s per call of ten
     * tickets and 0.5 s for one (350 ms + 10 ms per completion token, ±20 %, so small calls overtake
     * large ones), rate-limit headers taken when each call is admitted (so up to 2 s older than the
     * answer that carries them). Not in {@code all}: name it.
     */
    public static Scenario slowProvider(int tickets) {
        return new Scenario("w", "slow-provider", "500 RPM, 200k TPM, burst 5 s; sim counts cl100k_base, 8k context, "
                + "~2 s calls, headers at admission", tickets, 500, 200_000, 5, 1, Binding.TPM, false, Kind.PIPELINE,
                SLOW_PROVIDER, 0);
    }

    /** (x) (j)'s interactive tickets into (w)'s provider: a bulk backlog, then interactive tickets; not in {@code all}. */
    public static Scenario slowProviderInteractive(int tickets) {
        return new Scenario("x", "slow-provider-interactive", "as (w); " + INTERACTIVE_TICKETS
                + " interactive into a bulk backlog", tickets, 500, 200_000, 5, 1, Binding.TPM, false, Kind.INTERACTIVE,
                SLOW_PROVIDER, 0);
    }

    /**
     * (t) (x) with its interactive tickets at the backlog's end: the first once {@value #TAIL_FROM_PERCENT} % of
     * the bulk backlog is classified, then one every {@value #INTERACTIVE_SPACING_MS} ms, through the backlog's
     * last calls (which may spend what lowerings added to the interactive reserve) and the idle seconds after
     * them; not in {@code all}.
     */
    public static Scenario slowProviderInteractiveTail(int tickets) {
        return new Scenario("t", "interactive-tail", "as (x); " + INTERACTIVE_TICKETS + " interactive from " + TAIL_FROM_PERCENT
                + " % of the backlog on", tickets, 500, 200_000, 5, 1, Binding.TPM, false, Kind.INTERACTIVE, SLOW_PROVIDER, 0,
                TAIL_FROM_PERCENT / 100.0);
    }

    /**
     * (k) {@code dlq replay}: {@code tickets} small dead letters (kind retries-exhausted, quotaflow's
     * failure headers) in {@code tickets.dlq} of a fresh broker, replayed without a rate limit
     * ({@code --rate 0}), then {@value #REPLAY_DEFAULT_RATE_RECORDS} of them again at the default rate.
     */
    public static Scenario dlqReplay(int tickets) {
        return new Scenario("k", "dlq-replay", "dead letters replayed to their origin topics, --rate 0 and default",
                tickets, 0, 0, 5, 1, Binding.TPM, false, Kind.DLQ_REPLAY, ScenarioShape.DEFAULT, 0);
    }

    /**
     * Chaos: the broker and the pipeline as child processes, 600 RPM, 300 000 TPM; the pipeline is
     * SIGKILLed three times and the broker once mid-run (see {@link ChaosRunner}). Not part of
     * {@link #all(Integer)}: it kills processes and takes minutes of mostly waiting.
     */
    public static Scenario chaos(int tickets) {
        return new Scenario(CHAOS, CHAOS, "600 RPM, 300k TPM, broker and pipeline as child processes, 1 instance", tickets, 600,
                300_000, 5, 1, Binding.TPM, false);
    }

    /** Whether this is the chaos scenario (run by {@link ChaosRunner}, not {@link BenchmarkRunner}). */
    public boolean isChaos() {
        return CHAOS.equals(key);
    }

    /** Whether the scenario runs the pipeline against a rate-limited provider (quota use is measured). */
    public boolean measuresQuota() {
        return !estimateOnly && (kind == Kind.PIPELINE || kind == Kind.INTERACTIVE);
    }

    /** Tickets the baseline classifies: a prefix of {@link #tickets()}; 0 when there is no baseline. */
    public int baselineTicketCount() {
        return Math.min(tickets, baselineTickets);
    }

    /** Whether a baseline can be run for this scenario at all (pipeline scenarios against a limited provider). */
    public boolean baselineApplies() {
        return kind == Kind.PIPELINE && !estimateOnly && !isChaos();
    }

    /** Scenarios that can be selected by name but are not in {@code all}. */
    public static List<Scenario> extras(Integer tickets) {
        int n = tickets == null ? DEFAULT_TICKETS : tickets;
        return List.of(chaos(tickets == null ? CHAOS_DEFAULT_TICKETS : tickets), slowProvider(n), slowProviderInteractive(n),
                slowProviderInteractiveTail(n));
    }

    /**
     * Every scenario in order, each with {@code tickets} tickets, or, when null, its own default:
     * {@value #DEFAULT_TICKETS} for (a)–(f) and (j), {@value #NIGHTLY_TICKETS} for (g),
     * {@value #HIGH_TIER_TICKETS} for (h), {@value #OVERHEAD_TICKETS} for (i) and
     * {@value #REPLAY_RECORDS} dead letters for (k).
     */
    public static List<Scenario> all(Integer tickets) {
        int n = tickets == null ? DEFAULT_TICKETS : tickets;
        return List.of(tpmBinds(n), rpmBinds(n), fullMinuteBucket(n), twoInstances(n), fixedBatches10(n), foreignTokenizer(n),
                nightlyJob(tickets == null ? NIGHTLY_TICKETS : tickets), highTier(tickets == null ? HIGH_TIER_TICKETS : tickets),
                overhead(tickets == null ? OVERHEAD_TICKETS : tickets), interactive(n),
                dlqReplay(tickets == null ? REPLAY_RECORDS : tickets));
    }

    /**
     * The scenarios named in {@code selection}: comma-separated keys ({@code a}) or names
     * ({@code tpm-binds}), or {@code all} (every scenario but the {@link #extras(Integer) extras},
     * which must be named: {@code all,chaos}); in catalogue order, each once.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static List<Scenario> select(String selection, Integer tickets) {
        List<Scenario> standard = all(tickets);
        if (selection == null || selection.isBlank() || selection.strip().equalsIgnoreCase("all")) {
            return standard;
        }
        List<Scenario> catalogue = new ArrayList<>(standard);
        catalogue.addAll(extras(tickets));
        Set<String> wanted = new LinkedHashSet<>();
        for (String part : selection.split(",")) {
            String p = part.strip().toLowerCase(Locale.ROOT);
            if (p.isEmpty()) {
                continue;
            }
            if (p.equals("all")) {
                standard.forEach(s -> wanted.add(s.key()));
                continue;
            }
            Scenario match = catalogue.stream().filter(s -> s.key().equals(p) || s.name().equals(p)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown scenario \"" + part.strip() + "\"; choose from "
                            + String.join(", ", catalogue.stream()
                            .map(s -> s.key().equals(s.name()) ? s.key() : s.key() + " (" + s.name() + ")").toList()) + " or all"));
            wanted.add(match.key());
        }
        List<Scenario> out = new ArrayList<>();
        for (Scenario s : catalogue) {
            if (wanted.contains(s.key())) {
                out.add(s);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no scenario selected");
        }
        return out;
    }

    /** The same scenario with another ticket count. */
    public Scenario withTickets(int n) {
        return new Scenario(key, name, description, n, rpm, tpm, simBurstSeconds, instances, binding, estimateOnly, kind, shape,
                baselineTickets, interactiveFrom);
    }

    /** The same scenario with another baseline ({@code 0} = none, {@link #ALL} = every ticket). */
    public Scenario withBaselineTickets(int n) {
        return new Scenario(key, name, description, tickets, rpm, tpm, simBurstSeconds, instances, binding, estimateOnly, kind, shape,
                n, interactiveFrom);
    }

    /** The same scenario with its interactive tickets from {@code share} of the backlog's results on (0: the first result). */
    public Scenario withInteractiveFrom(double share) {
        return new Scenario(key, name, description, tickets, rpm, tpm, simBurstSeconds, instances, binding, estimateOnly, kind, shape,
                baselineTickets, share);
    }

    /** The same scenario with another shape. */
    public Scenario withShape(ScenarioShape value) {
        return new Scenario(key, name, description, tickets, rpm, tpm, simBurstSeconds, instances, binding, estimateOnly, kind,
                value, baselineTickets, interactiveFrom);
    }

    /** The binding limit's value per minute. */
    public long bindingLimit() {
        return binding.limit(rpm, tpm);
    }

    /** {@code a tpm-binds}. */
    public String label() {
        return "(" + key + ") " + name;
    }
}
