package io.quotaflow.cli;

import io.quotaflow.Pipeline;
import io.quotaflow.config.ConfigLoader;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testkit.KafkaBrokerExtension;
import io.quotaflow.testkit.RecordingReporter;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration sources against a real broker: {@code kafka.*} from the environment reaches
 * every client kind of every command, and two {@code topics.prefix} deployments on one cluster do
 * not see each other's tickets or results.
 */
@Order(14) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
@ExtendWith(KafkaBrokerExtension.class)
@ResourceLock(RecordingReporter.LOCK)
class ConfigurationIT {

    private static final String REPORTER = RecordingReporter.class.getName();

    @BeforeEach
    void clear() {
        RecordingReporter.clear();
    }

    private static Map<String, String> env(String prefix, String... pairs) {
        Map<String, String> env = new HashMap<>();
        env.put("QUOTAFLOW_BOOTSTRAP_SERVERS", KafkaBrokerExtension.bootstrapServers());
        env.put("QUOTAFLOW_TOPICS_PREFIX", prefix);
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }

    private static CommandRun run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), env, args);
        return new CommandRun(code, out.toString(), err.toString());
    }

    @Test
    void shouldPassKafkaPropertiesFromTheEnvironmentToEveryClientKind(@TempDir Path dir) throws Exception {
        String prefix = KafkaBrokerExtension.uniqueName("kp") + ".";
        Map<String, String> env = env(prefix, "QUOTAFLOW_KAFKA_METRIC_REPORTERS", REPORTER);
        Path tickets = Files.writeString(dir.resolve("t.jsonl"), "{\"id\":\"T-1\",\"body\":\"card declined\"}\n");

        assertThat(run(env, "topics", "apply").exitCode()).isZero();
        assertThat(RecordingReporter.seen()).contains(new RecordingReporter.Seen("kafka.admin.client", "quotaflow-topics"));
        assertThat(run(env, "publish", "--file", tickets.toString()).exitCode()).isZero();
        assertThat(RecordingReporter.seen()).extracting(RecordingReporter.Seen::namespace).contains("kafka.producer");
        RecordingReporter.clear();
        assertThat(run(env, "results", "--idle-timeout", "0.5").exitCode()).isZero();
        assertThat(RecordingReporter.seen()).extracting(RecordingReporter.Seen::namespace)
                .contains("kafka.admin.client", "kafka.consumer");
        RecordingReporter.clear();
        assertThat(run(env, "dlq", "stats").exitCode()).isZero();
        assertThat(RecordingReporter.seen()).extracting(RecordingReporter.Seen::namespace).contains("kafka.consumer");

        RecordingReporter.clear();
        try (Pipeline pipeline = Pipeline.start(runConfig(env, dir), FakeModelClient.labellingAll("billing", "low"))) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
        }
        assertThat(RecordingReporter.seen()).extracting(RecordingReporter.Seen::namespace)
                .contains("kafka.streams", "kafka.producer", "kafka.consumer", "kafka.admin.client");
        assertThat(RecordingReporter.seen()).extracting(RecordingReporter.Seen::clientId)
                .anyMatch(id -> id.startsWith(prefix + "quotaflow") && id.endsWith("-consumer"));
    }

    @Test
    void shouldKeepTwoPrefixedDeploymentsApartOnOneCluster(@TempDir Path dir) throws Exception {
        String a = KafkaBrokerExtension.uniqueName("a") + ".";
        String b = KafkaBrokerExtension.uniqueName("b") + ".";
        assertThat(run(env(a), "topics", "apply").exitCode()).isZero();
        CommandRun applyB = run(env(b), "topics", "apply");
        assertThat(applyB.exitCode()).isZero();
        assertThat(applyB.out()).contains("created " + b + "tickets.retry");
        try (Admin admin = KafkaBrokerExtension.admin()) {
            Set<String> names = admin.listTopics().names().get();
            for (String base : new String[] {"tickets.interactive", "tickets.standard", "tickets.bulk", "tickets.retry",
                    "tickets.classified", "tickets.dlq"}) {
                assertThat(names).contains(a + base, b + base);
            }
        }
        Path tickets = Files.writeString(dir.resolve("t.jsonl"),
                "{\"id\":\"A-1\",\"body\":\"I was charged twice\",\"priority\":\"bulk\"}\n"
                        + "{\"id\":\"A-2\",\"subject\":\"Login\",\"body\":\"cannot sign in\"}\n");

        try (Pipeline pipeline = Pipeline.start(runConfig(env(a), dir), FakeModelClient.labellingAll("billing", "low"))) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            CommandRun published = run(env(a), "publish", "--file", tickets.toString());
            assertThat(published.exitCode()).as(published.err()).isZero();

            CommandRun resultsA = run(env(a), "results", "--from-beginning", "--max", "2", "--idle-timeout", "60");
            assertThat(resultsA.exitCode()).as(resultsA.err()).isZero();
            assertThat(resultsA.out().lines()).hasSize(2).allMatch(l -> l.contains("\"category\":\"billing\""));
            assertThat(resultsA.out()).contains("\"id\":\"A-1\"", "\"id\":\"A-2\"");

            CommandRun resultsB = run(env(b), "results", "--from-beginning", "--idle-timeout", "1");
            assertThat(resultsB.exitCode()).as(resultsB.err()).isZero();
            assertThat(resultsB.out()).isEmpty();
        }
    }

    private static QuotaflowConfig runConfig(Map<String, String> env, Path dir) throws Exception {
        Map<String, String> all = new HashMap<>(env);
        all.put("QUOTAFLOW_LLM_API_KEY", "sk-test");
        all.put("QUOTAFLOW_LLM_BASE_URL", "http://localhost:1/v1");
        all.put("QUOTAFLOW_HTTP_PORT", "-1");
        all.put("QUOTAFLOW_INSTANCE_ID", "none");
        all.put("QUOTAFLOW_STATE_DIR", Files.createTempDirectory(dir, "state").toString());
        return ConfigLoader.load(null, all, Map.of());
    }
}
