package io.quotaflow.cli;

import io.quotaflow.testkit.KafkaBrokerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The exit codes of the cluster commands against a real broker, through the whole command line. */
@ExtendWith(KafkaBrokerExtension.class)
class CommandExitCodesIT {

    private static CommandRun run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> env = Map.of("QUOTAFLOW_BOOTSTRAP_SERVERS", KafkaBrokerExtension.bootstrapServers());
        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), env, args);
        return new CommandRun(code, out.toString(), err.toString());
    }

    @Test
    void shouldExitWithOneWhenADlqShowFilterMatchesNothingAndZeroOnAnEmptyDeadLetterTopic() {
        String prefix = KafkaBrokerExtension.uniqueName("exit") + ".";

        CommandRun missingTopic = run("dlq", "show", "--topics-prefix", prefix);
        CommandRun apply = run("topics", "apply", "--topics-prefix", prefix);
        CommandRun none = run("dlq", "show", "--topics-prefix", prefix, "--key", "ABC-1");
        CommandRun empty = run("dlq", "show", "--topics-prefix", prefix);
        CommandRun emptyJson = run("dlq", "show", "--topics-prefix", prefix, "--json");
        CommandRun stats = run("dlq", "stats", "--topics-prefix", prefix);
        CommandRun badOffset = run("dlq", "show", "--topics-prefix", prefix, "--offset", "x:y");

        assertThat(missingTopic.exitCode()).as(missingTopic.err()).isEqualTo(ExitCodes.FAILURE);
        assertThat(apply.exitCode()).as(apply.err()).isEqualTo(ExitCodes.OK);
        assertThat(apply.out()).contains("created " + prefix + "tickets.dlq");
        assertThat(none.exitCode()).as(none.err()).isEqualTo(ExitCodes.FAILURE);
        assertThat(none.err()).as("a ticket id is not a secret: shown")
                .contains("dlq show: no dead letter in " + prefix + "tickets.dlq matched (filters: key in [ABC-1])");
        assertThat(none.out()).isEmpty();
        assertThat(empty.exitCode()).as("an empty dead-letter topic is no failure: %s", empty.err()).isEqualTo(ExitCodes.OK);
        assertThat(empty.out()).isEqualTo("dlq show: no dead letters in " + prefix + "tickets.dlq\n");
        assertThat(emptyJson.exitCode()).as(emptyJson.err()).isEqualTo(ExitCodes.OK);
        assertThat(emptyJson.out()).as("--json prints JSON lines only").isEmpty();
        assertThat(emptyJson.err()).contains("no dead letters in " + prefix + "tickets.dlq");
        assertThat(stats.exitCode()).as(stats.err()).isEqualTo(ExitCodes.OK);
        assertThat(badOffset.exitCode()).as(badOffset.err()).isEqualTo(ExitCodes.USAGE);
    }
}
