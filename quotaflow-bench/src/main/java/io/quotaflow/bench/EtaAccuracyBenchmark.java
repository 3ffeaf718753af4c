package io.quotaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.HeaderMoment;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.status.QueueView;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Bench (m), ETA accuracy: a bulk backlog of generated tickets on one pipeline instance; some
 * seconds in, {@code GET /tickets/{id}} is asked for tickets spread over the queue, and each
 * {@code estimatedDoneAt} is scored against the ticket's real {@code classifiedAt}: the error over
 * the time it still had to wait when asked. It runs against one {@link Provider} shape at a time:
 * {@link Provider#ours()} (the simulator counting as the client does, 3k RPM, 400k TPM) and
 * {@link Provider#slow()} (a provider shaped unlike ours: cl100k_base counting, a 5 s bucket, headers
 * taken at admission, 200k TPM, about 2 s a call) and {@link Provider#input()} (the same, its TPM counting the
 * prompt only). Not a test: the figures are reported.
 */
public final class EtaAccuracyBenchmark {

    /** Key and name of the scenario. */
    public static final String KEY = "m";
    public static final String NAME = "eta-accuracy";

    /**
     * The provider the backlog is served by, and the median error it must stay within.
     *
     * @param name         how the report names it
     * @param rpm          the simulator's and the pipeline's RPM
     * @param tpm          the same for TPM
     * @param burstSeconds the simulator's bucket, in seconds of refill
     * @param shape        how the simulator differs from what the client assumes (tokenizer, latency, context)
     * @param headersAt    when the simulator takes a 200's rate-limit headers
     * @param target       the median error it must stay within
     * @param chargesMaxTokens whether the simulator's TPM counts {@code max_tokens} besides the prompt
     */
    public record Provider(String name, int rpm, int tpm, double burstSeconds, ScenarioShape shape, HeaderMoment headersAt, double target,
                           boolean chargesMaxTokens) {

        public Provider {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(shape, "shape");
            Objects.requireNonNull(headersAt, "headersAt");
            if (rpm < 1 || tpm < 1 || !(burstSeconds > 0 && burstSeconds <= 60) || !(target > 0)) {
                throw new IllegalArgumentException("invalid provider " + name + ": rpm=" + rpm + " tpm=" + tpm + " burst=" + burstSeconds
                        + " target=" + target);
            }
        }

        /** The simulator as the client assumes it: its tokenizer, 3k RPM, 400k TPM, a 5 s bucket, 150 ms + 2 ms/token; target 15 %. */
        public static Provider ours() {
            return new Provider("ours", 3_000, 400_000, 5, ScenarioShape.DEFAULT, HeaderMoment.ADMISSION, 0.15, true);
        }

        /**
         * (w)'s provider: it counts cl100k_base (the client estimates o200k_base), an 8 192-token context,
         * about 2 s a call of ten, 500 RPM, 200k TPM, a 5 s bucket, headers taken at admission; target 25 %.
         */
        public static Provider slow() {
            return new Provider("slow", 500, 200_000, 5, Scenario.SLOW_PROVIDER, HeaderMoment.ADMISSION, 0.25, true);
        }

        /**
         * {@link #slow()} whose TPM counts the prompt only (input tokens), not {@code max_tokens}: the limiter's
         * charge per ticket is well above what the provider debits, and what it admits is learned from the
         * headers; target 25 %.
         */
        public static Provider input() {
            return new Provider("input", 500, 200_000, 5, Scenario.SLOW_PROVIDER, HeaderMoment.ADMISSION, 0.25, false);
        }

        /** All three, ours first. */
        public static List<Provider> all() {
            return List.of(ours(), slow(), input());
        }

        /** {@code 3000 RPM, 400000 TPM, burst 5 s, headers at admission} and what the shape changes. */
        public String describe() {
            String shaped = shape.describe();
            return String.format(Locale.ROOT, "%d RPM, %d TPM, burst %s s, headers at %s%s", rpm, tpm,
                    burstSeconds == Math.rint(burstSeconds) ? Long.toString((long) burstSeconds) : Double.toString(burstSeconds),
                    headersAt.label(), shaped.isEmpty() ? "" : ", " + shaped) + (chargesMaxTokens ? "" : ", TPM counts the prompt only");
        }
    }

    /**
     * @param tickets  bulk tickets published at once
     * @param provider the provider shape served by
     * @param askAfter how long after the publish the tickets are asked about
     * @param probes   tickets asked about, spread evenly over the queue
     */
    public record Options(int tickets, Provider provider, Duration askAfter, int probes, long seed, Duration timeout) {

        public static Options defaults(long seed) {
            return new Options(5_000, Provider.ours(), Duration.ofSeconds(60), 10, seed, Duration.ofMinutes(20));
        }

        public Options withTickets(int value) {
            return new Options(value, provider, askAfter, probes, seed, timeout);
        }

        public Options withProvider(Provider value) {
            return new Options(tickets, value, askAfter, probes, seed, timeout);
        }

        public int rpm() {
            return provider.rpm();
        }

        public int tpm() {
            return provider.tpm();
        }
    }

    /** One ticket asked about: where it was, what was estimated, when it was classified (epoch ms). */
    public record Probe(String id, int position, long askedAt, long estimatedDoneAt, long classifiedAt) {

        /** |estimate − actual| over the time it still had to wait when asked. */
        public double error() {
            return Math.abs(estimatedDoneAt - classifiedAt) / (double) Math.max(1, classifiedAt - askedAt);
        }
    }

    /** What the run measured. */
    public record Result(Options options, List<Probe> probes, int waitingWhenAsked, long askedAfterMs) {

        public Result(Options options, List<Probe> probes, int waitingWhenAsked) {
            this(options, probes, waitingWhenAsked, options.askAfter().toMillis());
        }

        public double medianError() {
            double[] errors = probes.stream().mapToDouble(Probe::error).sorted().toArray();
            if (errors.length == 0) {
                return Double.NaN;
            }
            int mid = errors.length / 2;
            return errors.length % 2 == 1 ? errors[mid] : (errors[mid - 1] + errors[mid]) / 2;
        }

        public boolean metTarget() {
            return !probes.isEmpty() && medianError() <= options.provider().target();
        }

        public String report() {
            Provider provider = options.provider();
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                    "(m) eta-accuracy on provider '%s' (%s): %d bulk tickets; asked %d s in, %d waiting%n", provider.name(),
                    provider.describe(), options.tickets(), askedAfterMs / 1000, waitingWhenAsked));
            sb.append("  position  predicted     actual  estimate  error\n");
            for (Probe p : probes) {
                sb.append(String.format(Locale.ROOT, "  %8d  %7.1f s  %7.1f s  %+7.1f s  %5.1f %%%n", p.position(),
                        (p.estimatedDoneAt() - p.askedAt()) / 1000.0, (p.classifiedAt() - p.askedAt()) / 1000.0,
                        (p.estimatedDoneAt() - p.classifiedAt()) / 1000.0, p.error() * 100));
            }
            sb.append(String.format(Locale.ROOT, "  median error %.1f %% of the time left (target <= %.0f %%): %s%n", medianError() * 100,
                    provider.target() * 100, metTarget() ? "met" : "NOT met"));
            return sb.toString();
        }
    }

    private final Options options;
    private final Consumer<String> progress;

    /** Whether a {@code --scenario} selection names this benchmark (it runs alone). */
    public static boolean named(String selection) {
        return KEY.equals(selection) || NAME.equals(selection);
    }
    private final HttpClient http = HttpClient.newHttpClient();
    /** When the backlog was published (epoch ms). */
    private long publishedAt;

    public EtaAccuracyBenchmark(Options options, Consumer<String> progress) {
        this.options = options;
        this.progress = progress;
    }

    public Result run() throws IOException, InterruptedException {
        String key = "sk-bench-eta";
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            try (Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
                TopicsApplier.bundled().apply(admin);
            }
            Provider provider = options.provider();
            SimulatorConfig simConfig = provider.shape().applyTo(SimulatorConfig.builder().port(0).rpm(provider.rpm()).tpm(provider.tpm())
                    .burstSeconds(provider.burstSeconds()).headersAt(provider.headersAt()).chargesMaxTokens(provider.chargesMaxTokens())
                    .apiKeys(Set.of(key))).build();
            try (ProviderSimulator sim = ProviderSimulator.start(simConfig);
                 Pipeline pipeline = Pipeline.start(config(broker.bootstrapServers(), sim.baseUrl(), simConfig.model(), key))) {
                if (!pipeline.awaitRunning(Duration.ofSeconds(90))) {
                    throw new IllegalStateException("the pipeline did not start: " + pipeline.streams().state());
                }
                var tickets = new TicketGenerator(options.seed()).generate(options.tickets());
                progress.accept(provider.name() + ": publishing " + tickets.size() + " tickets to " + Priority.BULK.topic());
                publishedAt = System.currentTimeMillis();
                try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of())) {
                    var summary = publisher.publish(new ByteArrayInputStream(TicketGenerator.jsonLines(tickets)), Optional.of(Priority.BULK),
                            false, p -> { }, i -> { });
                    if (!summary.succeeded()) {
                        throw new IllegalStateException("publishing failed: " + summary.describe());
                    }
                }
                progress.accept("waiting " + options.askAfter().toSeconds() + " s into the backlog");
                Thread.sleep(options.askAfter().toMillis());
                QueueView view = settledView(pipeline, tickets.size());
                long askedAt = System.currentTimeMillis();
                List<Probe> asked = ask(pipeline.httpPort(), spread(view, tickets.stream()
                        .map(t -> io.quotaflow.records.TicketKey.key(t.tenant(), t.id())).toList(), options.probes()));
                progress.accept(String.format(Locale.ROOT, "pace behind the view: %.1f tickets/s, %.0f tokens/s, %d ms a call (%s)",
                        view.rates().ticketsPerSecond(), view.rates().tokensPerSecond(), view.rates().latencyMs(),
                        view.rates().measured() ? "measured" : "configured"));
                progress.accept("asked about " + asked.size() + " of " + view.size() + " waiting; waiting for their results");
                return new Result(options, classified(broker.bootstrapServers(), asked), view.size(), askedAt - publishedAt);
            }
        }
    }

    /**
     * The queue once every ticket reached it: on a loaded machine the intake (routing, token counts)
     * can lag the dispatcher, and a queue still filling would score the intake, not the ETA. Waits
     * until what waits and what was classified cover all but {@link #IN_FLIGHT_SLACK} of the tickets
     * (those may be in flight), for at most {@link #SETTLE_MAX}.
     */
    private QueueView settledView(Pipeline pipeline, int published) throws InterruptedException {
        long deadline = System.currentTimeMillis() + SETTLE_MAX.toMillis();
        boolean told = false;
        while (true) {
            Optional<QueueView> view = pipeline.metrics().tickets().views().stream().max(java.util.Comparator.comparingInt(QueueView::size));
            long reached = view.map(QueueView::size).orElse(0) + pipeline.metrics().classifiedCount();
            if (view.isPresent() && (reached >= published - IN_FLIGHT_SLACK || System.currentTimeMillis() >= deadline)) {
                return view.get();
            }
            if (!told) {
                progress.accept("the intake is behind (" + reached + " of " + published + " tickets queued or classified); waiting for it");
                told = true;
            }
            Thread.sleep(1_000);
        }
    }

    /** Tickets that may be in flight when the intake is done. */
    static final int IN_FLIGHT_SLACK = 300;
    /** The longest wait for the intake past {@link Options#askAfter}. */
    static final Duration SETTLE_MAX = Duration.ofMinutes(3);

    /**
     * Ids spread over the queue, one per slice of {@code probes}: at the middle position of a slice
     * within the tickets the view lists one by one, the ticket listed there; beyond them (the view only
     * counts those), evenly spaced among the tickets it does not list, in the order they were
     * published, of the last ones published (as many as wait beyond the list: the first published
     * are done or listed).
     */
    static List<String> spread(QueueView view, List<String> published, int probes) {
        Map<Integer, String> byPosition = new HashMap<>();
        List<String> unlisted = new ArrayList<>();
        for (String id : published) {
            view.place(id).ifPresentOrElse(p -> byPosition.put(p.position(), id), () -> unlisted.add(id));
        }
        int size = view.size();
        int beyond = Math.max(0, Math.min(unlisted.size(), size - view.listed()));
        List<String> tail = unlisted.subList(unlisted.size() - beyond, unlisted.size());
        List<String> ids = new ArrayList<>();
        for (int k = 0; k < probes && size > 0; k++) {
            int position = (int) ((k + 0.5) * size / probes);
            String id = position < view.listed() ? byPosition.get(position)
                    : tail.isEmpty() ? null : tail.get(Math.min(tail.size() - 1, (position - view.listed()) * tail.size() / Math.max(1, beyond)));
            if (id != null) {
                ids.add(id);
            }
        }
        return ids;
    }

    private List<Probe> ask(int port, List<String> ids) throws IOException, InterruptedException {
        List<Probe> out = new ArrayList<>();
        for (String id : ids) {
            long askedAt = System.currentTimeMillis();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/tickets/" + id)).GET()
                    .build(), HttpResponse.BodyHandlers.ofString());
            JsonNode answer = Json.MAPPER.readTree(r.body());
            boolean waiting = "pending".equals(answer.path("state").asText()) || "delayed".equals(answer.path("state").asText());
            if (waiting && answer.path("estimatedDoneAt").isTextual() && answer.path("position").isInt()) {
                out.add(new Probe(id, answer.get("position").asInt(), askedAt,
                        Instant.parse(answer.get("estimatedDoneAt").asText()).toEpochMilli(), 0));
            }
        }
        return out;
    }

    /** The probes with their {@code classifiedAt}, read as a read_committed consumer. */
    private List<Probe> classified(String bootstrap, List<Probe> asked) {
        Map<String, Long> at = new HashMap<>();
        Map<String, Object> props = KafkaClients.properties(bootstrap, Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"));
        long deadline = System.currentTimeMillis() + options.timeout().toMillis();
        Set<String> wanted = new java.util.HashSet<>(asked.stream().map(Probe::id).toList());
        List<Long> every = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor("tickets.classified").stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (!at.keySet().containsAll(wanted) && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> rec : consumer.poll(Duration.ofMillis(500))) {
                    long when = classifiedAt(rec.value());
                    every.add(when);
                    if (wanted.contains(rec.key())) {
                        at.put(rec.key(), when);
                    }
                }
            }
        }
        progress.accept("classified per 15 s since the publish: " + timeline(every, publishedAt, 15_000));
        return asked.stream().filter(p -> at.containsKey(p.id()))
                .map(p -> new Probe(p.id(), p.position(), p.askedAt(), p.estimatedDoneAt(), at.get(p.id()))).toList();
    }

    /** How many of {@code times} fall in each {@code stepMs} from {@code from}, e.g. {@code 310 455 460}. */
    static String timeline(List<Long> times, long from, long stepMs) {
        java.util.TreeMap<Long, Integer> steps = new java.util.TreeMap<>();
        for (long t : times) {
            steps.merge(Math.max(0, t - from) / stepMs, 1, Integer::sum);
        }
        StringBuilder sb = new StringBuilder();
        long last = steps.isEmpty() ? -1 : steps.lastKey();
        for (long k = 0; k <= last; k++) {
            sb.append(k == 0 ? "" : " ").append(steps.getOrDefault(k, 0));
        }
        return sb.toString();
    }

    private static long classifiedAt(String json) {
        try {
            return Instant.parse(Json.MAPPER.readTree(json).get("classifiedAt").asText()).toEpochMilli();
        } catch (IOException e) {
            throw new IllegalStateException("unreadable result: " + e.getMessage(), e);
        }
    }

    private QuotaflowConfig config(String bootstrap, String baseUrl, String model, String apiKey) throws IOException {
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(options.rpm()).withTpm(options.tpm());
        return new QuotaflowConfig(bootstrap, BenchmarkRunner.APPLICATION_ID + "-eta", Files.createTempDirectory("quotaflow-bench-eta-"),
                0, Map.of("num.standby.replicas", "0"), DispatcherSettings.builder(ModelSettings.of(URI.create(baseUrl), model,
                Secret.of(apiKey)), quota, BatchSettings.ofDefaults(), RetrySettings.ofDefaults()).build()).withHttp("127.0.0.1", 0);
    }
}
