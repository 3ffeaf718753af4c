package io.quotaflow.artifact;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.records.Json;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.testkit.KafkaBrokerExtension;
import io.quotaflow.testkit.RepositoryFiles;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the production jar ({@code quotaflow-cli/target/quotaflow.jar}) logs, on its own logging
 * configuration, in a JVM of its own: a healthy start, a few tickets classified against the provider
 * simulator, the HTTP endpoints asked (HEAD included) and a SIGTERM print no WARN or ERROR line, every
 * line starts with an ISO-8601 date and time; with {@code log.format=json} every line is one JSON object.
 */
@Order(11) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
@ExtendWith(KafkaBrokerExtension.class)
class ProductionLogsIT {

    private static final String API_KEY = "sk-it-production-logs";
    private static final int TICKETS = 6;
    /** A log line's level, wherever its layout puts it (text, JSON, java.util.logging's own format). */
    private static final Pattern WARN_OR_ERROR = Pattern.compile("\\b(WARN|WARNING|ERROR|SEVERE)\\b");
    private static final Pattern ISO_START = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(Z|[+-]\\d{2}:\\d{2}) .*");
    private static final Pattern ISO_TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(Z|[+-]\\d{2}:\\d{2})");

    /** The jar under test: the one this build made, or {@code -Dquotaflow.logs.jar=FILE} (to count another build's lines). */
    private static Path jar() {
        String other = System.getProperty("quotaflow.logs.jar");
        Path jar = other != null ? Path.of(other) : RepositoryFiles.path("quotaflow-cli/target/quotaflow.jar");
        assertThat(jar).as("mvn package builds the production jar first").exists();
        return jar;
    }

    /** The started line's address ({@code RunCommand.startedLine}): the port the run bound itself (http.port 0). */
    private static final Pattern SERVES = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+) serves /health/live");

    /** The port the run says it serves on, once it has said so; empty before. */
    private static java.util.OptionalInt boundPort(Path stderr) throws IOException {
        java.util.regex.Matcher m = SERVES.matcher(read(stderr));
        return m.find() ? java.util.OptionalInt.of(Integer.parseInt(m.group(1))) : java.util.OptionalInt.empty();
    }

    private static Process start(Map<String, String> env, Path stdout, Path stderr, List<String> args) throws IOException {
        // the child's temporary directory is its own, beside the state directory: a checkout under /tmp (as a CI
        // runner's may be) would otherwise put state.dir under the OS's temporary directory, which Kafka Streams
        // warns about, rightly, for a deployment
        Path tmp = Files.createDirectories(stdout.toAbsolutePath().getParent().resolve("jvm-tmp"));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx512m", "-Djava.io.tmpdir=" + tmp, "-jar", jar().toString()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        // nothing of the test JVM's own configuration reaches the child
        pb.environment().keySet().removeIf(k -> k.startsWith("QUOTAFLOW_"));
        pb.environment().putAll(env);
        return pb.start();
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldLogNoWarningOrErrorDuringAHealthyRun() throws Exception {
        String prefix = KafkaBrokerExtension.uniqueName("logs") + ".";
        // not under the OS's temporary directory (Kafka Streams warns about a state.dir there, rightly; see start)
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of(System.getProperty("project.build.directory", "target"),
                "production-logs")), "run");
        Path stderr = dir.resolve("stderr.log");
        // the topics exist, as on a cluster where they were applied once: this broker is a single one, so
        // creating them caps their replication factor, which topics apply rightly warns about
        assertThat(io.quotaflow.cli.QuotaflowCommand.execute(new java.io.PrintWriter(java.io.Writer.nullWriter()),
                new java.io.PrintWriter(java.io.Writer.nullWriter()), Map.of("QUOTAFLOW_BOOTSTRAP_SERVERS",
                        KafkaBrokerExtension.bootstrapServers(), "QUOTAFLOW_TOPICS_PREFIX", prefix), List.of(), "topics", "apply"))
                .isZero();
        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(600).tpm(200_000)
                .apiKeys(Set.of(API_KEY)).build())) {
            Process run = start(Map.of("QUOTAFLOW_LLM_API_KEY", API_KEY), dir.resolve("stdout.log"), stderr, List.of("run",
                    "--bootstrap-servers", KafkaBrokerExtension.bootstrapServers(), "--topics-prefix", prefix,
                    "--application-id", prefix + "app", "--state-dir", dir.resolve("state").toString(),
                    "--http-port", "0", "--http-bind", "127.0.0.1", "--llm-base-url", sim.baseUrl(),
                    "--rpm", "600", "--tpm", "200000"));
            try {
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
                // the run binds a free port itself (a port picked here first could be taken by a parallel test meanwhile)
                java.util.concurrent.atomic.AtomicReference<URI> served = new java.util.concurrent.atomic.AtomicReference<>();
                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    assertThat(run.isAlive()).as("the pipeline runs; its log:%n%s", read(stderr)).isTrue();
                    java.util.OptionalInt port = boundPort(stderr);
                    assertThat(port).as("the started line names the port").isPresent();
                    served.set(URI.create("http://127.0.0.1:" + port.getAsInt()));
                    assertThat(ready(http, served.get())).isTrue();
                });
                URI root = served.get();
                // what a probe, a scrape and an operator ask, HEAD included
                assertThat(status(http, "HEAD", root.resolve("/health/live"))).isEqualTo(200);
                assertThat(status(http, "GET", root.resolve("/metrics"))).isEqualTo(200);
                assertThat(status(http, "GET", root.resolve("/status"))).isEqualTo(200);
                publishAndAwait(prefix);
                assertThat(status(http, "GET", root.resolve("/tickets/LOG-1"))).isEqualTo(200);
            } finally {
                run.destroy(); // SIGTERM: the graceful stop
                assertThat(run.waitFor(90, TimeUnit.SECONDS)).as("stops on SIGTERM").isTrue();
            }
        }
        List<String> lines = Files.readAllLines(stderr, StandardCharsets.UTF_8);
        List<String> bad = lines.stream().filter(l -> WARN_OR_ERROR.matcher(l).find()).toList();
        System.out.printf("healthy run: %d log lines, %d WARN/ERROR%n", lines.size(), bad.size());
        bad.forEach(l -> System.out.println("  " + l));
        assertThat(bad).as("WARN or ERROR lines of a healthy run").isEmpty();
        assertThat(lines).as("what the command itself says: where it runs, and that it stops").isNotEmpty()
                .anyMatch(l -> l.startsWith("quotaflow running: ")).anyMatch(l -> l.startsWith("quotaflow: stopping"));
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldStartEveryTextLogLineWithItsDateTimeAndOffset() throws Exception {
        Path dir = io.quotaflow.testkit.TestDirs.temporary("qf-logs-text");
        Path stderr = dir.resolve("stderr.log");
        String prefix = KafkaBrokerExtension.uniqueName("logs-text") + ".";
        Process apply = start(Map.of(), dir.resolve("stdout.log"), stderr, List.of("--verbose", "topics", "apply",
                "--bootstrap-servers", KafkaBrokerExtension.bootstrapServers(), "--topics-prefix", prefix));
        assertThat(apply.waitFor(90, TimeUnit.SECONDS)).isTrue();
        assertThat(apply.exitValue()).as(read(stderr)).isZero();
        List<String> lines = Files.readAllLines(stderr, StandardCharsets.UTF_8);
        assertThat(lines).as("INFO lines of the admin client").hasSizeGreaterThan(3)
                .filteredOn(l -> !l.startsWith("\t") && !l.isBlank())
                .allSatisfy(l -> assertThat(l).as("a date and time with its offset first").matches(ISO_START));
        assertThat(lines).anyMatch(l -> l.matches(".* INFO  \\[main] org\\.apache\\.kafka\\.common\\.config\\.AbstractConfig - AdminClientConfig values: .*"));
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldWriteOneJsonObjectPerLineWithLogFormatJson() throws Exception {
        Path dir = io.quotaflow.testkit.TestDirs.temporary("qf-logs-json");
        Path stderr = dir.resolve("stderr.log");
        String prefix = KafkaBrokerExtension.uniqueName("logs-json") + ".";
        // --verbose: the Kafka clients' INFO lines (their configuration, multi-line) make a log worth parsing
        Process apply = start(Map.of("QUOTAFLOW_LOG_FORMAT", "json"), dir.resolve("stdout.log"), stderr, List.of("--verbose",
                "topics", "apply", "--bootstrap-servers", KafkaBrokerExtension.bootstrapServers(), "--topics-prefix", prefix));
        assertThat(apply.waitFor(90, TimeUnit.SECONDS)).isTrue();
        assertThat(apply.exitValue()).as(read(stderr)).isZero();
        List<String> lines = Files.readAllLines(stderr, StandardCharsets.UTF_8);
        assertThat(lines).as("INFO lines of the admin client and of quotaflow").hasSizeGreaterThan(3);
        List<String> loggers = new ArrayList<>();
        for (String line : lines) {
            JsonNode event = Json.MAPPER.readTree(line);
            assertThat(event.isObject()).as(line).isTrue();
            assertThat(event.path("timestamp").asText()).as(line).matches(ISO_TIMESTAMP);
            assertThat(event.path("level").asText()).as(line).isIn("TRACE", "DEBUG", "INFO", "WARN", "ERROR");
            assertThat(event.path("logger").asText()).as(line).isNotBlank();
            assertThat(event.path("message").isTextual()).as(line).isTrue();
            loggers.add(event.path("logger").asText());
        }
        assertThat(loggers).as("Kafka's clients log through the same layout").anyMatch(l -> l.startsWith("org.apache.kafka."));
    }

    private void publishAndAwait(String prefix) {
        TopicNames topics = new TopicNames(prefix);
        StringBuilder tickets = new StringBuilder();
        for (int i = 1; i <= TICKETS; i++) {
            tickets.append("{\"id\":\"LOG-").append(i).append("\",\"subject\":\"Refund\",\"body\":\"Please refund order ")
                    .append(i).append(".\",\"priority\":\"standard\"}\n");
        }
        try (TicketPublisher publisher = new TicketPublisher(KafkaBrokerExtension.bootstrapServers(), Map.of(), topics)) {
            assertThat(publisher.publish(new StringReader(tickets.toString()), Optional.empty(), p -> { }).succeeded()).isTrue();
        }
        try (OutcomeCounter counter = new OutcomeCounter(KafkaBrokerExtension.bootstrapServers(), Map.of(), topics.prefix())) {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                counter.poll(Duration.ofMillis(200));
                assertThat(counter.classified()).isEqualTo(TICKETS);
            });
        }
    }

    private static int status(HttpClient http, String method, URI uri) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5))
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Whether {@code /health/ready} answers 200 (not yet listening: false). */
    private static boolean ready(HttpClient http, URI root) throws InterruptedException {
        try {
            return status(http, "GET", root.resolve("/health/ready")) == 200;
        } catch (IOException e) {
            return false;
        }
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
