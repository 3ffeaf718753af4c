package io.quotaflow.cli;

import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.testkit.KafkaBrokerExtension;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code quotaflow check} against a real broker and the provider simulator (which accepts one key and
 * serves one model): all ok against a healthy provider (exit 0, one chat call spent), and exactly one
 * FAIL line, exit 1, for a dead port, a wrong key, a wrong model and a base URL without /v1.
 */
@ExtendWith(KafkaBrokerExtension.class)
class CheckCommandIT {

    private static final String KEY = "sk-check-it-right-key-0123456789";
    private static final String WRONG_KEY = "sk-check-it-wrong-key-9876543210";
    private static ProviderSimulator sim;
    private static String prefix;

    @BeforeAll
    static void start() throws Exception {
        sim = ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(600).tpm(200_000).apiKeys(Set.of(KEY)).noLatency().build());
        prefix = KafkaBrokerExtension.uniqueName("check") + ".";
        try (Admin admin = KafkaBrokerExtension.admin()) {
            TopicsApplier.bundled().withPrefix(prefix).apply(admin);
        }
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @Test
    void shouldPassEveryCheckAgainstAHealthyProviderSpendingOneCall() {
        long before = sim.stats().totalRequests();

        CommandRun r = check(KEY, sim.baseUrl(), "gpt-4o-mini");

        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).doesNotContain("FAIL").doesNotContain(KEY);
        assertThat(lines(r)).anySatisfy(l -> assertThat(l).startsWith("ok   cluster: reachable: Kafka at "))
                .anySatisfy(l -> assertThat(l).matches("ok   topics: declared: the \\d+ declared topics exist as declared"))
                .anySatisfy(l -> assertThat(l).startsWith("ok   route default: reachable: " + sim.baseUrl() + " answered GET /models (200)"))
                .anySatisfy(l -> assertThat(l).isEqualTo("ok   route default: key: accepted (GET /models 200)"))
                .anySatisfy(l -> assertThat(l).startsWith("ok   route default: model: gpt-4o-mini answered a 1-token call"))
                .anySatisfy(l -> assertThat(l).startsWith("ok   route default: context window: 128000 tokens"))
                .anySatisfy(l -> assertThat(l).startsWith("ok   route default: rate limits: ")
                        .contains("rate-limit headers seen (x-ratelimit-*)").contains("limits announced: requests 600, tokens 200000")
                        .contains("configured rpm 500, tpm 100000"));
        assertThat(sim.stats().totalRequests() - before).as("one tiny chat call per route").isEqualTo(1);
        System.out.print("CheckCommandIT, a healthy provider:\n" + r.out());
    }

    @Test
    void shouldFailInOneLineNamingConnectionRefusedOnADeadPort() throws IOException {
        CommandRun r;
        String dead;
        try (io.quotaflow.testkit.DeadPort port = io.quotaflow.testkit.DeadPort.open()) {
            dead = port.url("/v1");
            r = check(KEY, dead, "gpt-4o-mini");
        }

        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(failures(r)).containsExactly("FAIL route default: reachable: " + dead + "/models: connection refused");
        System.out.print("CheckCommandIT, a dead port:\n" + r.out());
    }

    @Test
    void shouldFailInOneLineSayingTheKeyIsRefusedWithoutPrintingIt() {
        CommandRun r = check(WRONG_KEY, sim.baseUrl(), "gpt-4o-mini");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(failures(r)).singleElement().asString().startsWith("FAIL route default: key: key refused (401): ");
        assertThat(r.out() + r.err()).doesNotContain(WRONG_KEY).doesNotContain("wrong-key");
    }

    @Test
    void shouldFailInOneLineSayingTheModelIsNotFound() {
        CommandRun r = check(KEY, sim.baseUrl(), "gpt-no-such-model");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(failures(r)).singleElement().asString()
                .startsWith("FAIL route default: model: gpt-no-such-model not found (404): ").contains("model_not_found");
    }

    @Test
    void shouldSayTheModelIsNotListedWithoutACall() {
        long before = sim.stats().totalRequests();

        CommandRun r = check(KEY, sim.baseUrl(), "gpt-no-such-model", "--no-call");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(failures(r)).singleElement().asString()
                .startsWith("FAIL route default: model: gpt-no-such-model is not among the ").contains("gpt-4o-mini");
        assertThat(sim.stats().totalRequests()).as("--no-call spends no call").isEqualTo(before);
    }

    @Test
    void shouldSayABaseUrlWithoutItsVersionLacksV1() {
        String root = sim.baseUrl().replaceFirst("/v1$", "");

        CommandRun r = check(KEY, root, "gpt-4o-mini");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(failures(r)).containsExactly("FAIL route default: base URL: " + root + "/models answers 404 and the base URL "
                + "does not end in a version such as /v1: try " + root + "/v1");
    }

    private static CommandRun check(String key, String baseUrl, String model, String... more) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = {"check", "--bootstrap-servers", KafkaBrokerExtension.bootstrapServers(), "--topics-prefix", prefix,
            "--llm-base-url", baseUrl, "--llm-model", model, "--rpm", "500", "--tpm", "100000"};
        String[] all = Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true),
                Map.of("QUOTAFLOW_LLM_API_KEY", key), all);
        return new CommandRun(code, out.toString(), err.toString());
    }

    private static List<String> lines(CommandRun r) {
        return r.out().lines().toList();
    }

    private static List<String> failures(CommandRun r) {
        return lines(r).stream().filter(l -> l.startsWith("FAIL")).toList();
    }
}
