package io.quotaflow.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * One benchmark scenario: the provider's limits, how many pipeline instances share its key, and how
 * many tickets go through.
 *
 * @param key             short selector ({@code a}, {@code b}, ...)
 * @param name            the fixed name used in tables and JSON
 * @param description     one line for humans
 * @param tickets         tickets to publish
 * @param rpm             the simulator's requests per minute, and the pipeline's {@code quota.rpm}
 * @param tpm             the simulator's tokens per minute, and the pipeline's {@code quota.tpm}
 * @param simBurstSeconds the simulator's bucket capacity in seconds of refill
 * @param instances       pipeline instances sharing the application id and the API key
 * @param binding         the limit the scenario is designed to bind
 * @param estimateOnly    computed offline (no broker, no pipeline): the fixed-batches comparison row
 */
public record Scenario(String key, String name, String description, int tickets, long rpm, long tpm, double simBurstSeconds,
                       int instances, Binding binding, boolean estimateOnly) {

    public static final int DEFAULT_TICKETS = 5_000;
    /** Key and name of the chaos scenario. */
    public static final String CHAOS = "chaos";
    /** Tickets of the chaos scenario unless {@code --tickets} says otherwise. */
    public static final int CHAOS_DEFAULT_TICKETS = 2_000;
    /** Items per call of the fixed-batch comparison. */
    public static final int FIXED_BATCH_ITEMS = 10;

    public Scenario {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(binding, "binding");
        if (tickets < 1) {
            throw new IllegalArgumentException("tickets must be >= 1: " + tickets);
        }
        if (rpm < 1 || tpm < 1 || !(simBurstSeconds > 0 && simBurstSeconds <= 60) || instances < 1) {
            throw new IllegalArgumentException("invalid scenario " + name + ": rpm=" + rpm + " tpm=" + tpm + " burst="
                    + simBurstSeconds + " instances=" + instances);
        }
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

    /** Scenarios that can be selected by name but are not in {@code all}. */
    public static List<Scenario> extras(Integer tickets) {
        return List.of(chaos(tickets == null ? CHAOS_DEFAULT_TICKETS : tickets));
    }

    /** Every scenario in order, each with {@code tickets} tickets (or its default when null). */
    public static List<Scenario> all(Integer tickets) {
        int n = tickets == null ? DEFAULT_TICKETS : tickets;
        return List.of(tpmBinds(n), rpmBinds(n), fullMinuteBucket(n), twoInstances(n), fixedBatches10(n));
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
        return new Scenario(key, name, description, n, rpm, tpm, simBurstSeconds, instances, binding, estimateOnly);
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
