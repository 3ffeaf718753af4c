package io.quotaflow.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code quotaflow reset}'s options that need no cluster (the reset itself: ResetCommandIT). */
class ResetCommandTest {

    @Test
    void shouldRefuseAStateDirWhoseStateItWouldKeep(@TempDir Path dir) {
        CommandRun run = CommandRun.of(new ResetCommand(), "--bootstrap-servers", "localhost:1", "--keep-local-state",
                "--state-dir", dir.toString(), "--yes");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("give --state-dir (the local state to delete) or --keep-local-state (delete none), not both");
        assertThat(run.out()).isEmpty();
    }
}
