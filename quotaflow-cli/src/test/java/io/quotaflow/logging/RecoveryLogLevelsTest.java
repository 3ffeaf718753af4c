package io.quotaflow.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.settings.RetrySettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** A halt is an ERROR and an opening circuit a WARN; their recoveries are INFO: nothing to act on. */
class RecoveryLogLevelsTest {

    private final Logger logger = (Logger) LoggerFactory.getLogger(ScopeHealth.class);
    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private Level before;

    @BeforeEach
    void capture() {
        before = logger.getLevel();
        logger.setLevel(Level.INFO);
        events.start();
        logger.addAppender(events);
    }

    @AfterEach
    void release() {
        logger.detachAppender(events);
        logger.setLevel(before);
    }

    @Test
    void shouldLogTheEndOfAHaltAtInfo() {
        ScopeHealth health = new ScopeHealth("s", RetrySettings.ofDefaults().withHaltProbeInterval(Duration.ofSeconds(10)), (a, b) -> { });
        assertThat(health.tryStart(0)).isTrue();
        health.halt(100, "HTTP 401: invalid_api_key");
        assertThat(health.tryStart(10_100)).isTrue();
        health.succeeded(10_200, 10);

        assertThat(events.list).extracting(ILoggingEvent::getLevel, e -> e.getFormattedMessage().contains("HALTED"))
                .containsExactly(tuple(Level.ERROR, true), tuple(Level.INFO, false));
        assertThat(events.list.get(1).getFormattedMessage()).contains("dispatch resumed");
    }

    @Test
    void shouldLogACircuitOpeningAtWarnAndItsRecoveryAtInfo() {
        ScopeHealth health = new ScopeHealth("s", RetrySettings.ofDefaults().withCircuitOpenWait(Duration.ofSeconds(5)), (a, b) -> { });
        for (int i = 0; i < 5; i++) {
            assertThat(health.tryStart(i)).isTrue();
            health.failed(i + 1, 1, "503");
        }
        assertThat(health.tryStart(5_100)).isTrue();
        health.succeeded(5_200, 10);

        assertThat(events.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN, Level.INFO, Level.INFO);
        assertThat(events.list.get(2).getFormattedMessage()).endsWith("HALF_OPEN -> CLOSED");
    }
}
