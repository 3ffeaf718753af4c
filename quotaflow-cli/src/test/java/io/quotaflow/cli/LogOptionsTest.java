package io.quotaflow.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The global {@code --log-format} option. */
class LogOptionsTest {

    @Test
    void shouldReadTheFormatInEitherSpellingAndRemoveIt() {
        assertThat(LogOptions.format("--log-format", "json", "topics", "apply")).contains("json");
        assertThat(LogOptions.format("topics", "apply", "--log-format=TEXT")).contains("text");
        assertThat(LogOptions.format("topics", "apply")).isEmpty();
        assertThat(LogOptions.without("--log-format", "json", "topics", "--log-format=text", "apply")).containsExactly("topics", "apply");
    }

    @Test
    void shouldReadTheVariablesOfTheLogSettings() {
        assertThat(LogOptions.FORMAT_VARIABLE).isEqualTo(io.quotaflow.config.ConfigLoader.envName("log.format"));
        assertThat(LogOptions.LEVEL_VARIABLE).isEqualTo(io.quotaflow.config.ConfigLoader.envName("log.level"));
    }

    @Test
    void shouldRefuseAFormatItDoesNotKnow() {
        assertThatThrownBy(() -> LogOptions.format("--log-format", "xml")).hasMessage("--log-format must be text or json, not 'xml'");
        assertThatThrownBy(() -> LogOptions.format("topics", "--log-format")).hasMessageContaining("needs a value");
        StringWriter err = new StringWriter();

        int code = QuotaflowCommand.execute(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), Map.of(),
                "--log-format", "xml", "topics", "apply");

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("--log-format must be text or json");
    }

    @Test
    void shouldRefuseABadLogSettingAsAnyOtherSetting() {
        StringWriter err = new StringWriter();

        int code = QuotaflowCommand.execute(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true),
                Map.of("QUOTAFLOW_LOG_LEVEL", "loud", "QUOTAFLOW_BOOTSTRAP_SERVERS", "127.0.0.1:1"), "topics", "apply");

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("log.level").contains("error, warn, info, debug or trace");
        assertThat(Optional.ofNullable(System.getProperty("quotaflow.log.level"))).as("an invalid level is never applied")
                .isNotEqualTo(Optional.of("LOUD"));
    }
}
