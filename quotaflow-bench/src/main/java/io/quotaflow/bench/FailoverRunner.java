package io.quotaflow.bench;

import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.demo.TempDirs;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import org.apache.kafka.clients.admin.Admin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The failover scenario: three {@code quotaflow run} instances (child processes, so that one can
 * really be SIGKILLed: no LeaveGroup, no commit, calls left in the air) share six quota scopes,
 * six routes each with its own provider simulator in this JVM (one key, {@value #RPM} RPM,
 * {@link Options#tpm} TPM, {@value #DEFAULT_TPM} by default, a bucket of {@link Options#burstSeconds}, 5 s by default,
 * each), on an in-process broker. The tickets are spread evenly over
 * six tenants, one routed to each scope, and published at once. Once {@value #KILL_AT_SHARE} of
 * them are accounted for, the instance owning the most dispatcher tasks is SIGKILLed; it stays dead, or
 * (a {@code +restart} variant) is started again at once with the same state directory and so the
 * same instance id. The run ends when every ticket is classified or dead-lettered.
 *
 * <p>Meanwhile every simulator's admission counts are sampled every {@value #SAMPLE_MS} ms
 * ({@link ScopeTimeline}) and the group's task ownership every {@value #OWNERSHIP_MS} ms
 * ({@link GroupOwnership}); {@link FailoverFigures} turns them into the seconds until each of the
 * killed instance's scopes admitted a call again and the use of the six quotas. Not a test:
 * nothing is asserted.
 */
public final class FailoverRunner {

    public static final String APPLICATION_ID = "failover";
    public static final int SCOPES = 6;
    public static final int INSTANCES = 3;
    public static final long RPM = 1_000;
    /**
     * Each scope's tokens per minute: low enough that the quotas, not the three instances sharing this
     * machine's cores, bind (every scope has tickets waiting when the instance is killed), so that the
     * seconds until a scope admits again measure the failover and not the wait for its next ticket.
     */
    public static final long DEFAULT_TPM = 60_000;
    public static final double DEFAULT_BURST_SECONDS = 5;
    /** About 100 s of work per scope at {@value #DEFAULT_TPM} TPM. */
    public static final int DEFAULT_TICKETS = 2_400;
    /** The kill comes once this share of the tickets is accounted for: the group has settled and every scope is busy. */
    public static final double KILL_AT_SHARE = 0.3;
    static final long SAMPLE_MS = 50;
    static final long OWNERSHIP_MS = 500;
    static final String API_KEY_ENV = "QUOTAFLOW_LLM_API_KEY";

    /**
     * @param seed             generator seed
     * @param tickets          tickets per run
     * @param timeout          give up on a run after this long (first publish to the last ticket)
     * @param progressInterval how often {@link Listener#progress} is called
     * @param childJvmArgs     JVM options of the instances
     * @param tpm              each scope's tokens per minute (its simulator's limit and its route's {@code tpm})
     * @param burstSeconds     how many seconds of its limit each simulator's bucket holds (60: a full-minute bucket)
     * @param shape            the simulators' shape (tokenizer, context, latency); {@link ScenarioShape#DEFAULT}: ours
     */
    public record Options(long seed, int tickets, Duration timeout, Duration progressInterval, List<String> childJvmArgs, long tpm,
                          double burstSeconds, ScenarioShape shape) {
        public Options {
            Objects.requireNonNull(shape, "shape");
            if (tpm < 1_000) {
                throw new IllegalArgumentException("tpm must be >= 1000: " + tpm);
            }
            if (!(burstSeconds > 0 && burstSeconds <= 60)) {
                throw new IllegalArgumentException("burstSeconds must be in (0, 60]: " + burstSeconds);
            }
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(progressInterval, "progressInterval");
            childJvmArgs = List.copyOf(childJvmArgs);
            if (tickets < SCOPES) {
                throw new IllegalArgumentException("tickets must be >= " + SCOPES + ": " + tickets);
            }
        }

        public static Options defaults(long seed) {
            return new Options(seed, DEFAULT_TICKETS, Duration.ofMinutes(15), Duration.ofSeconds(5), List.of("-Xmx512m"), DEFAULT_TPM,
                    DEFAULT_BURST_SECONDS, ScenarioShape.DEFAULT);
        }

        public Options withTickets(int value) {
            return new Options(seed, value, timeout, progressInterval, childJvmArgs, tpm, burstSeconds, shape);
        }

        public Options withTimeout(Duration value) {
            return new Options(seed, tickets, value, progressInterval, childJvmArgs, tpm, burstSeconds, shape);
        }

        public Options withProgressInterval(Duration value) {
            return new Options(seed, tickets, timeout, value, childJvmArgs, tpm, burstSeconds, shape);
        }

        public Options withTpm(long value) {
            return new Options(seed, tickets, timeout, progressInterval, childJvmArgs, value, burstSeconds, shape);
        }

        /** The simulators shaped as {@code value} (e.g. {@link Scenario#SLOW_PROVIDER}, (w)'s: cl100k_base, ~2 s calls). */
        public Options withShape(ScenarioShape value) {
            return new Options(seed, tickets, timeout, progressInterval, childJvmArgs, tpm, burstSeconds, value);
        }

        public Options withBurstSeconds(double value) {
            return new Options(seed, tickets, timeout, progressInterval, childJvmArgs, tpm, value, shape);
        }
    }

    /** Receives what a run is doing, on the running thread. */
    public interface Listener {
        default void phase(FailoverVariant variant, String message) {
        }

        default void progress(FailoverVariant variant, String line) {
        }
    }

    private final Options options;
    private final Listener listener;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    public FailoverRunner(Options options, Listener listener) {
        this.options = Objects.requireNonNull(options, "options");
        this.listener = listener == null ? new Listener() { } : listener;
    }

    /** The label of instance {@code i} (0-based): its {@code client.id}. */
    static String label(int i) {
        return "fo-" + (i + 1);
    }

    /** The route of scope {@code i}. */
    static String route(int i) {
        return "s" + i;
    }

    /** The tenant whose tickets go to scope {@code i}. */
    static String tenant(int i) {
        return "t" + i;
    }

    /** The generated tickets, their tenants replaced so that ticket n goes to scope n mod {@value #SCOPES}. */
    static List<GeneratedTicket> tickets(long seed, int n) {
        List<GeneratedTicket> generated = new TicketGenerator(seed).generate(n);
        List<GeneratedTicket> out = new ArrayList<>(n);
        for (int i = 0; i < generated.size(); i++) {
            GeneratedTicket t = generated.get(i);
            out.add(new GeneratedTicket(t.id(), tenant(i % SCOPES), t.priority(), t.language(), t.subject(), t.body(), t.submittedAt(),
                    t.channel(), t.label()));
        }
        return out;
    }

    /** The properties file of one instance: six routes, one per simulator, a tenant routed to each, and the variant's settings. */
    static String instanceConfig(String bootstrap, List<String> baseUrls, long tpm, int instance, FailoverVariant variant) {
        StringBuilder sb = new StringBuilder();
        sb.append("bootstrap.servers=").append(bootstrap).append('\n');
        sb.append("application.id=").append(APPLICATION_ID).append('\n');
        sb.append("http.bind=127.0.0.1\n");
        sb.append("instance.id=").append(variant.instanceId()).append('\n');
        List<String> routes = new ArrayList<>();
        for (int i = 0; i < baseUrls.size(); i++) {
            routes.add(route(i));
        }
        sb.append("routes=").append(String.join(",", routes)).append('\n');
        for (int i = 0; i < baseUrls.size(); i++) {
            sb.append("route.").append(route(i)).append(".base-url=").append(baseUrls.get(i)).append('\n');
            if (variant.limitsSet()) {
                sb.append("route.").append(route(i)).append(".rpm=").append(RPM).append('\n');
                sb.append("route.").append(route(i)).append(".tpm=").append(tpm).append('\n');
            }
            sb.append("routing.tenant.").append(tenant(i)).append('=').append(route(i)).append('\n');
        }
        sb.append("kafka.client.id=").append(label(instance)).append('\n');
        new TreeMap<>(variant.kafka()).forEach((k, v) -> sb.append("kafka.").append(k).append('=').append(v).append('\n'));
        return sb.toString();
    }

    /** Each scope's dispatch partition, as an instance reading {@code config} with {@code apiKey} computes it. */
    static List<Integer> scopePartitions(Path config, String apiKey) {
        io.quotaflow.config.QuotaflowConfig c = io.quotaflow.config.ConfigLoader.load(config, Map.of(API_KEY_ENV, apiKey), Map.of());
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < SCOPES; i++) {
            String scope = c.dispatcher().routing().route(route(i)).orElseThrow().scope();
            out.add(io.quotaflow.settings.QuotaScope.dispatchPartition(scope, c.dispatcher().dispatchPartitions()));
        }
        return out;
    }

    /** Runs one variant on fresh infrastructure. */
    public FailoverResult run(FailoverVariant variant) {
        Objects.requireNonNull(variant, "variant");
        List<ChildProcess> children = new CopyOnWriteArrayList<>();
        Thread hook = new Thread(() -> children.forEach(ChildProcess::destroyNow), "quotaflow-failover-children");
        Runtime.getRuntime().addShutdownHook(hook);
        Path root = null;
        boolean passed = false;
        List<ProviderSimulator> sims = new ArrayList<>();
        String loadAtStart = loadAverage();
        try {
            root = Files.createTempDirectory("quotaflow-failover-");
            listener.phase(variant, "starting Kafka broker (KRaft, in-process" + (variant.broker().isEmpty() ? ""
                    : ", " + variant.broker()) + "); logs in " + root.resolve("logs"));
            try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(0, null, variant.broker())) {
                try (Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
                    TopicsApplier.bundled().apply(admin);
                }
                String apiKey = "sk-failover-" + UUID.randomUUID();
                List<String> baseUrls = new ArrayList<>();
                for (int i = 0; i < SCOPES; i++) {
                    ProviderSimulator sim = ProviderSimulator.start(options.shape().applyTo(SimulatorConfig.builder().port(0).rpm(RPM)
                            .tpm(options.tpm()).burstSeconds(options.burstSeconds()).seed(options.seed() + i).apiKeys(Set.of(apiKey)))
                            .build());
                    sims.add(sim);
                    baseUrls.add("http://127.0.0.1:" + sim.port() + "/v1");
                }
                listener.phase(variant, SCOPES + " provider simulators (" + RPM + " RPM, " + options.tpm() + " TPM, burst "
                        + options.burstSeconds() + " s each" + (options.shape().describe().isEmpty() ? "" : ", " + options.shape().describe())
                        + "); starting " + INSTANCES + " instances: " + variant.description());
                FailoverRun run = new FailoverRun(options, listener, http, variant, root, broker.bootstrapServers(), baseUrls, apiKey, children);
                FailoverResult result = run.execute(sims, loadAtStart);
                passed = result.clean();
                return result;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            children.forEach(c -> c.stop(Duration.ofSeconds(10)));
            sims.forEach(ProviderSimulator::close);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
            if (root != null) {
                TempDirs.deleteQuietly(root.resolve("state"));
                if (passed) {
                    TempDirs.deleteQuietly(root.resolve("config"));
                }
            }
        }
    }

    /** The 1-minute load average (Linux), for the notes: how contended the machine was. */
    static String loadAverage() {
        try {
            String s = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.UTF_8).strip();
            return s.split("\\s+")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
