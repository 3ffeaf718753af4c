package io.quotaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.config.DispatcherSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.simulator.ProviderSimulator;
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
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Bench (m), ETA accuracy: a bulk backlog of generated tickets on one pipeline instance; some
 * seconds in, {@code GET /tickets/{id}} is asked for tickets spread over the queue, and each
 * {@code estimatedDoneAt} is scored against the ticket's real {@code classifiedAt}: the error over
 * the time it still had to wait when asked (target: median at most 15 %). Not a test: the figures
 * are reported.
 */
public final class EtaAccuracyBenchmark {

    /** Key and name of the scenario. */
    public static final String KEY = "m";
    public static final String NAME = "eta-accuracy";

    /** The target of the median error. */
    public static final double TARGET = 0.15;

    /**
     * @param tickets  bulk tickets published at once
     * @param rpm      the simulator's and the pipeline's RPM
     * @param tpm      the same for TPM
     * @param askAfter how long after the publish the tickets are asked about
     * @param probes   tickets asked about, spread evenly over the queue
     */
    public record Options(int tickets, int rpm, int tpm, Duration askAfter, int probes, long seed, Duration timeout) {

        public static Options defaults(long seed) {
            return new Options(5_000, 3_000, 400_000, Duration.ofSeconds(60), 10, seed, Duration.ofMinutes(20));
        }

        public Options withTickets(int value) {
            return new Options(value, rpm, tpm, askAfter, probes, seed, timeout);
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
    public record Result(Options options, List<Probe> probes, int waitingWhenAsked) {

        public double medianError() {
            double[] errors = probes.stream().mapToDouble(Probe::error).sorted().toArray();
            if (errors.length == 0) {
                return Double.NaN;
            }
            int mid = errors.length / 2;
            return errors.length % 2 == 1 ? errors[mid] : (errors[mid - 1] + errors[mid]) / 2;
        }

        public boolean metTarget() {
            return !probes.isEmpty() && medianError() <= TARGET;
        }

        public String report() {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                    "(m) eta-accuracy: %d bulk tickets, %d RPM, %d TPM; asked %d s in, %d waiting%n", options.tickets(), options.rpm(),
                    options.tpm(), options.askAfter().toSeconds(), waitingWhenAsked));
            sb.append("  position  time left  estimate error\n");
            for (Probe p : probes) {
                sb.append(String.format(Locale.ROOT, "  %8d  %7.1f s  %+7.1f s  %5.1f %%%n", p.position(), (p.classifiedAt() - p.askedAt())
                        / 1000.0, (p.estimatedDoneAt() - p.classifiedAt()) / 1000.0, p.error() * 100));
            }
            sb.append(String.format(Locale.ROOT, "  median error %.1f %% of the time left (target <= %.0f %%): %s%n", medianError() * 100,
                    TARGET * 100, metTarget() ? "met" : "NOT met"));
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
            SimulatorConfig simConfig = SimulatorConfig.builder().port(0).rpm(options.rpm()).tpm(options.tpm()).burstSeconds(5)
                    .apiKeys(Set.of(key)).build();
            try (ProviderSimulator sim = ProviderSimulator.start(simConfig);
                 Pipeline pipeline = Pipeline.start(config(broker.bootstrapServers(), sim.baseUrl(), simConfig.model(), key))) {
                if (!pipeline.awaitRunning(Duration.ofSeconds(90))) {
                    throw new IllegalStateException("the pipeline did not start: " + pipeline.streams().state());
                }
                var tickets = new TicketGenerator(options.seed()).generate(options.tickets());
                progress.accept("publishing " + tickets.size() + " tickets to " + Priority.BULK.topic());
                try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of())) {
                    var summary = publisher.publish(new ByteArrayInputStream(TicketGenerator.jsonLines(tickets)), Optional.of(Priority.BULK),
                            false, p -> { }, i -> { });
                    if (!summary.succeeded()) {
                        throw new IllegalStateException("publishing failed: " + summary.describe());
                    }
                }
                progress.accept("waiting " + options.askAfter().toSeconds() + " s into the backlog");
                Thread.sleep(options.askAfter().toMillis());
                QueueView view = pipeline.metrics().tickets().views().stream().findFirst()
                        .orElseThrow(() -> new IllegalStateException("no queue published"));
                List<Probe> asked = ask(pipeline.httpPort(), spread(view, tickets.stream()
                        .map(t -> io.quotaflow.records.TicketKey.key(t.tenant(), t.id())).toList()));
                progress.accept("asked about " + asked.size() + " of " + view.size() + " waiting; waiting for their results");
                return new Result(options, classified(broker.bootstrapServers(), asked), view.size());
            }
        }
    }

    /** Ids at evenly spread positions of the queue (the middle of each of {@code probes} slices). */
    private List<String> spread(QueueView view, List<String> published) {
        Map<Integer, String> byPosition = new HashMap<>();
        for (String id : published) {
            view.place(id).ifPresent(p -> byPosition.put(p.position(), id));
        }
        List<String> ids = new ArrayList<>();
        int size = view.size();
        for (int k = 0; k < options.probes() && size > 0; k++) {
            String id = byPosition.get((int) ((k + 0.5) * size / options.probes()));
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
            if (answer.path("estimatedDoneAt").isTextual() && answer.path("position").isInt()) {
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
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor("tickets.classified").stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (!at.keySet().containsAll(wanted) && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> rec : consumer.poll(Duration.ofMillis(500))) {
                    if (wanted.contains(rec.key())) {
                        at.put(rec.key(), classifiedAt(rec.value()));
                    }
                }
            }
        }
        return asked.stream().filter(p -> at.containsKey(p.id()))
                .map(p -> new Probe(p.id(), p.position(), p.askedAt(), p.estimatedDoneAt(), at.get(p.id()))).toList();
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
                0, Map.of("num.standby.replicas", "0"), new DispatcherSettings(ModelSettings.of(URI.create(baseUrl), model,
                Secret.of(apiKey)), quota, BatchSettings.ofDefaults(), RetrySettings.ofDefaults())).withHttp("127.0.0.1", 0);
    }
}
