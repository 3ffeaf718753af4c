package io.quotaflow.artifact;

import io.quotaflow.testkit.RepositoryFiles;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The production artifact ({@code quotaflow-cli/target/quotaflow.jar}, what the Dockerfile ships)
 * carries the pipeline and its commands, and no Kafka broker, Scala, simulator, benchmark, demo or
 * test kit. Runs after {@code package} (Failsafe), on the jar Maven just built.
 */
class ProductionJarIT {

    /**
     * The plugin interfaces kafka-clients itself ships under {@code org/apache/kafka/server/}
     * (authorizer, create-topic policy, client quota callback, client telemetry): client API, not
     * broker code.
     */
    private static final List<String> CLIENT_PLUGIN_APIS = List.of("org/apache/kafka/server/authorizer/",
            "org/apache/kafka/server/policy/", "org/apache/kafka/server/quota/", "org/apache/kafka/server/telemetry/");

    private static List<String> entries;

    @BeforeAll
    static void readTheJar() throws IOException {
        Path jar = RepositoryFiles.path("quotaflow-cli/target/quotaflow.jar");
        assertThat(jar).as("mvn package builds the production jar first").exists();
        try (JarFile file = new JarFile(jar.toFile())) {
            entries = file.stream().map(ZipEntry::getName).toList();
        }
        System.out.printf("production jar: %s, %,d bytes, %,d entries%n", jar, Files.size(jar), entries.size());
    }

    @Test
    void shouldCarryThePipelineAndTheProductionCommands() {
        assertThat(entries).contains("io/quotaflow/cli/QuotaflowCommand.class", "io/quotaflow/cli/RunCommand.class",
                "io/quotaflow/Pipeline.class", "io/quotaflow/records/Classification.class", "io/quotaflow/tokens/TokenCounter.class",
                "org/apache/kafka/streams/KafkaStreams.class", "topics/tickets.classified.json", "logback.xml", "quotaflow-logback-text.xml", "quotaflow-logback-json.xml",
                "ch/qos/logback/classic/Logger.class", "org/slf4j/bridge/SLF4JBridgeHandler.class");
        assertThat(entries).as("one logging backend").noneMatch(e -> e.startsWith("org/slf4j/simple/"))
                .doesNotContain("simplelogger.properties", "quotaflow-dev-logback.xml");
    }

    @Test
    void shouldCarryTheOpenTelemetrySdkAndFindItsOtlpExporterByName() throws IOException {
        assertThat(entries).contains("io/quotaflow/tracing/OtelTracing.class",
                "io/opentelemetry/sdk/autoconfigure/AutoConfiguredOpenTelemetrySdk.class",
                "io/opentelemetry/exporter/otlp/http/trace/OtlpHttpSpanExporter.class",
                "io/opentelemetry/exporter/otlp/trace/OtlpGrpcSpanExporter.class");
        // OTEL_TRACES_EXPORTER=otlp names a provider the autoconfiguration finds through this (merged) services file
        try (JarFile file = new JarFile(RepositoryFiles.path("quotaflow-cli/target/quotaflow.jar").toFile())) {
            ZipEntry services = file.getEntry("META-INF/services/io.opentelemetry.sdk.autoconfigure.spi.traces.ConfigurableSpanExporterProvider");
            assertThat(services).isNotNull();
            assertThat(new String(file.getInputStream(services).readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
                    .contains("io.opentelemetry.exporter.otlp.internal.OtlpSpanExporterProvider");
        }
    }

    @Test
    void shouldCarryRocksDbForThePlatformsItRunsOnOnly() {
        List<String> natives = entries.stream().filter(e -> e.startsWith("librocksdbjni-")).toList();
        assertThat(natives).containsExactlyInAnyOrder("librocksdbjni-linux64.so", "librocksdbjni-linux64-musl.so",
                "librocksdbjni-linux-aarch64.so", "librocksdbjni-linux-aarch64-musl.so", "librocksdbjni-osx-x86_64.jnilib",
                "librocksdbjni-osx-arm64.jnilib", "librocksdbjni-win64.dll");
    }

    @Test
    void shouldCarryNoKafkaBrokerAndNoScala() {
        // kafka-clients and kafka-streams put their version files under kafka/; the broker's (Scala) classes live there too
        assertThat(entries.stream().filter(e -> e.startsWith("kafka/") && !e.equals("kafka/")))
                .as("under kafka/ only the clients' and streams' version files")
                .allMatch(e -> e.matches("kafka/kafka(-streams)?-version\\.properties"));
        assertThat(entries).noneMatch(e -> e.startsWith("kafka/server/"))
                .noneMatch(e -> e.startsWith("scala/"))
                .noneMatch(e -> e.startsWith("org/apache/kafka/controller/") || e.startsWith("org/apache/kafka/raft/")
                        || e.startsWith("org/apache/kafka/metadata/") || e.startsWith("org/apache/kafka/image/")
                        || e.startsWith("org/apache/kafka/storage/") || e.startsWith("org/apache/kafka/coordinator/"));
        assertThat(entries.stream().filter(e -> e.startsWith("org/apache/kafka/server/") && !e.equals("org/apache/kafka/server/")))
                .as("under org/apache/kafka/server/ only the client plugin interfaces of kafka-clients")
                .allMatch(e -> CLIENT_PLUGIN_APIS.stream().anyMatch(e::startsWith));
    }

    @Test
    void shouldCarryNoSimulatorBenchmarkDemoOrTestKit() {
        assertThat(entries).noneMatch(e -> e.startsWith("io/quotaflow/simulator/"))
                .noneMatch(e -> e.startsWith("io/quotaflow/bench/"))
                .noneMatch(e -> e.startsWith("io/quotaflow/demo/"))
                .noneMatch(e -> e.startsWith("io/quotaflow/dev/"))
                .noneMatch(e -> e.startsWith("io/quotaflow/testkit/"))
                .noneMatch(e -> e.startsWith("demo/"))
                .noneMatch(e -> e.startsWith("org/junit/") || e.startsWith("org/assertj/"));
    }

    @Test
    void shouldCarryNoClassUsedOnlyByTheDeveloperDistribution() {
        List<String> ours = entries.stream().filter(e -> e.startsWith("io/quotaflow/") && e.endsWith(".class")).toList();
        assertThat(ours).as("the pipeline's own classes are there to check").contains("io/quotaflow/Pipeline.class")
                .hasSizeGreaterThan(100);
        // the demo's and the benchmark's helpers: OutcomeCounter lives in the test kit, AssumedPrices in bench
        assertThat(ours).noneMatch(e -> e.contains("/OutcomeCounter") || e.contains("/AssumedPrices"))
                .noneMatch(e -> e.startsWith("io/quotaflow/simulator/") || e.startsWith("io/quotaflow/bench/")
                        || e.startsWith("io/quotaflow/demo/") || e.startsWith("io/quotaflow/dev/")
                        || e.startsWith("io/quotaflow/testkit/"));
    }

    @Test
    void shouldLogOnItsOwnProductionSettings() throws IOException {
        Path jar = RepositoryFiles.path("quotaflow-cli/target/quotaflow.jar");
        try (JarFile file = new JarFile(jar.toFile())) {
            String logging = new String(file.getInputStream(file.getEntry("logback.xml")).readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(logging).as("a real deployment's broker reconnect warnings stay visible")
                    .doesNotContain("org.apache.kafka.clients.NetworkClient\"").doesNotContain("name=\"org.apache.kafka\"")
                    .doesNotContain("name=\"kafka\"").contains("<root level=\"${quotaflow.log.others:-WARN}\">");
        }
    }
}
