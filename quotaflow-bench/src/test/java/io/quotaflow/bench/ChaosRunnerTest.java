package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ChaosRunnerTest {

    @Test
    void shouldRestartThePipelineWithTheSameArgumentsAndStateDir() {
        Path state = Path.of("/tmp/quotaflow-chaos-1/state");
        List<String> first = ChaosRunner.pipelineArgs("localhost:9092", "http://127.0.0.1:8089/v1", Scenario.chaos(2_000), state, 18080);
        List<String> again = ChaosRunner.pipelineArgs("localhost:9092", "http://127.0.0.1:8089/v1", Scenario.chaos(2_000), state, 18080);

        assertThat(again).isEqualTo(first);
        assertThat(String.join(" ", first)).isEqualTo("run --bootstrap-servers localhost:9092 --llm-base-url http://127.0.0.1:8089/v1 "
                + "--rpm 600 --tpm 300000 --state-dir /tmp/quotaflow-chaos-1/state --http-port 18080 --application-id chaos");
        assertThat(first).noneMatch(a -> a.startsWith("sk-"));
    }

    @Test
    void shouldStartAChildJvmOnThisClassPath() {
        List<String> cmd = ChildProcess.command(List.of("-Xmx768m"), List.of("broker", "--port", "9092"));

        assertThat(cmd.get(0)).contains("java");
        assertThat(cmd.subList(1, 3)).containsExactly("-Xmx768m", "-cp");
        assertThat(Path.of(cmd.get(3).split(java.io.File.pathSeparator)[0]).isAbsolute()).isTrue();
        assertThat(cmd.subList(4, cmd.size())).containsExactly(ChildProcess.MAIN_CLASS, "broker", "--port", "9092");
    }

    /** The chaos run's broker child is {@code broker} of the developer entry point; the production one has no such command. */
    @Test
    void shouldStartAChildThatKnowsBothRunAndBroker() throws Exception {
        for (String command : List.of("broker", "run")) {
            Process p = new ProcessBuilder(ChildProcess.command(List.of(), List.of(command, "--help"))).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(command + " --help:\n" + out).isZero();
            assertThat(out).contains("Usage: quotaflow " + command);
        }
    }
}
