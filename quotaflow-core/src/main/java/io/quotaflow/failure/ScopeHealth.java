package io.quotaflow.failure;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.quotaflow.settings.RetrySettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Whether a quota scope may call its provider: a Resilience4j circuit breaker over transient
 * failures (5xx, 529, timeouts, connection errors) that pauses dispatch during an outage and probes
 * with one small batch when half-open; and a halt, for failures no retry can fix (rejected key,
 * missing model, spent quota), that stops dispatch until a periodic probe is accepted.
 *
 * <p>Time is the stream task's (wall-clock of the punctuator), set with {@link #at(long)}, so tests
 * drive it with the {@code TopologyTestDriver}'s clock.
 */
public final class ScopeHealth {

    private static final Logger LOG = LoggerFactory.getLogger(ScopeHealth.class);
    private static final Duration HALT_LOG_INTERVAL = Duration.ofMinutes(1);
    /** Calls the half-open circuit lets through: one probe. */
    private static final int HALF_OPEN_CALLS = 1;
    /** The breaker's window: the failure rate of the calls that ended within this many seconds. */
    static final int WINDOW_SECONDS = 30;
    /** Calls the window must hold before its failure rate counts. */
    static final int MINIMUM_CALLS = 5;

    /** What dispatch may do now. */
    public enum Mode {
        /** Normal dispatch. */
        NORMAL,
        /** One small probe batch, then wait for its answer. */
        PROBE,
        /** Nothing. */
        BLOCKED
    }

    /** A transient failure, recorded by the breaker. */
    static final class TransientFailure extends RuntimeException {
        TransientFailure(String message) {
            super(message, null, false, false);
        }
    }

    private final String scope;
    /** Who the log lines name: {@code route default}, or {@code routes a, b} when routes share the scope. */
    private final String who;
    private final RetrySettings settings;
    /** The last transient failure, named when the circuit opens. */
    private String lastFailure;
    private final TaskClock clock = new TaskClock();
    private final CircuitBreaker breaker;
    private boolean halted;
    private String haltReason;
    private long nextHaltProbeAt;
    private boolean haltProbeInFlight;
    private long lastHaltLog = Long.MIN_VALUE;
    private long haltedSince;
    /**
     * What {@link #mode} needs of the breaker that it does not show: the end of the open wait (the
     * breaker lets a probe start strictly after it), and the permits the half-open state has left.
     * Kept in step with the breaker by its transitions and by every permit taken or given back here.
     */
    private long openUntil;
    private int halfOpenPermits;

    public ScopeHealth(String scope, RetrySettings settings, BiConsumer<String, String> transitions) {
        this(scope, "scope " + scope, settings, transitions);
    }

    /** {@code who}: what the log lines name the scope by ({@code route default}: never its hash alone). */
    public ScopeHealth(String scope, String who, RetrySettings settings, BiConsumer<String, String> transitions) {
        this.scope = scope;
        this.who = who;
        this.settings = settings;
        CircuitBreakerConfig config = CircuitBreakerConfig.custom()
                // the calls that ended in the last WINDOW_SECONDS, not the last ten: a call that times out ends
                // late by construction, so a few stalled calls among a hundred good ones would otherwise all
                // land in the last ten outcomes at a backlog's tail and read as an outage
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.TIME_BASED)
                .slidingWindowSize(WINDOW_SECONDS)
                .minimumNumberOfCalls(MINIMUM_CALLS)
                .failureRateThreshold(50)
                .waitDurationInOpenState(settings.circuitOpenWait())
                .permittedNumberOfCallsInHalfOpenState(HALF_OPEN_CALLS)
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .clock(clock)
                .currentTimestampFunction(c -> c.millis(), TimeUnit.MILLISECONDS)
                .build();
        this.breaker = CircuitBreaker.of("quotaflow-" + scope, config);
        this.breaker.getEventPublisher().onStateTransition(e -> {
            String from = e.getStateTransition().getFromState().name();
            String to = e.getStateTransition().getToState().name();
            entered(e.getStateTransition().getToState());
            if (e.getStateTransition().getToState() == CircuitBreaker.State.OPEN) {
                LOG.warn("{}: circuit {} -> {}: the provider is failing (last: {}); dispatch paused for {} s, tickets kept",
                        who, from, to, lastFailure, settings.circuitOpenWait().toSeconds());
            } else if (e.getStateTransition().getToState() == CircuitBreaker.State.HALF_OPEN
                    || e.getStateTransition().getToState() == CircuitBreaker.State.CLOSED) {
                // a recovery (a trial call, then calls again): a state change, not a problem
                LOG.info("{}: circuit {} -> {}", who, from, to);
            } else {
                LOG.warn("{}: circuit {} -> {}", who, from, to);
            }
            transitions.accept(from, to);
        });
    }

    /** Sets the current time (epoch ms). */
    public void at(long nowMs) {
        clock.millis = nowMs;
    }

    /** The breaker entered {@code state} (at the task's time): what {@link #mode} mirrors of it starts again. */
    private void entered(CircuitBreaker.State state) {
        if (state == CircuitBreaker.State.OPEN) {
            openUntil = clock.millis + settings.circuitOpenWait().toMillis();
        } else if (state == CircuitBreaker.State.HALF_OPEN) {
            halfOpenPermits = HALF_OPEN_CALLS;
        }
    }

    /**
     * What dispatch may do at {@code nowMs}: exactly what {@link #tryStart} would grant then, without
     * taking anything. {@link Mode#PROBE} means one probe may start now (the open wait is over, the
     * half-open permit is free, or a halt's probe is due); {@link Mode#BLOCKED}, that nothing may.
     */
    public Mode mode(long nowMs) {
        at(nowMs);
        if (halted) {
            return !haltProbeInFlight && nowMs >= nextHaltProbeAt ? Mode.PROBE : Mode.BLOCKED;
        }
        return switch (breaker.getState()) {
            case CLOSED, DISABLED, METRICS_ONLY -> Mode.NORMAL;
            case OPEN -> nowMs > openUntil ? Mode.PROBE : Mode.BLOCKED;
            case HALF_OPEN -> halfOpenPermits > 0 ? Mode.PROBE : Mode.BLOCKED;
            case FORCED_OPEN -> Mode.BLOCKED;
        };
    }

    /** Takes a permission to start a call; false means not now. A halt probe is marked in flight. */
    public boolean tryStart(long nowMs) {
        at(nowMs);
        if (halted) {
            if (haltProbeInFlight || nowMs < nextHaltProbeAt) {
                return false;
            }
            haltProbeInFlight = true;
            nextHaltProbeAt = nowMs + settings.haltProbeInterval().toMillis();
            return true;
        }
        boolean granted = breaker.tryAcquirePermission();
        if (granted && breaker.getState() == CircuitBreaker.State.HALF_OPEN) {
            halfOpenPermits--;
        }
        return granted;
    }

    /**
     * Takes the permit {@link #mode} offered at {@code nowMs} for a call that goes now: the last
     * step before it is sent, so nothing after it has to give the permit back.
     */
    public void start(long nowMs) {
        if (!tryStart(nowMs)) {
            // cannot happen while mode() mirrors the breaker (ScopeHealthModePropertiesTest checks it over random lives)
            LOG.error("{}: the circuit refused a call its mode {} allowed at {}; the call goes", who, circuitState(), nowMs);
        }
    }

    /** Gives a permission back to the breaker (a call whose answer says nothing of the provider's health). */
    private void releasePermission() {
        breaker.releasePermission();
        if (breaker.getState() == CircuitBreaker.State.HALF_OPEN) {
            halfOpenPermits++;
        }
    }

    /** The provider answered (200, or a 4xx about the request itself). */
    public void succeeded(long nowMs, long latencyMs) {
        at(nowMs);
        resume(nowMs);
        breaker.onSuccess(latencyMs, TimeUnit.MILLISECONDS);
    }

    /** A call that went unanswered for a reason that says nothing of the provider's health (a batch job that expired). */
    public void released(long nowMs) {
        at(nowMs);
        releasePermission();
    }

    /** A 429 rate limit: says nothing about an outage, but proves the credentials work. */
    public void rateLimited(long nowMs) {
        at(nowMs);
        resume(nowMs);
        releasePermission();
    }

    /** A transient failure: counted by the breaker. */
    public void failed(long nowMs, long latencyMs, String message) {
        at(nowMs);
        if (halted) {
            haltProbeInFlight = false;
            return;
        }
        lastFailure = message;
        breaker.onError(latencyMs, TimeUnit.MILLISECONDS, new TransientFailure(message));
    }

    /** Credentials, model or spend refused: stop dispatch until a probe is accepted. */
    public void halt(long nowMs, String reason) {
        at(nowMs);
        boolean first = !halted;
        if (first) {
            haltedSince = nowMs;
            releasePermission();
        }
        halted = true;
        haltReason = reason;
        haltProbeInFlight = false;
        nextHaltProbeAt = nowMs + settings.haltProbeInterval().toMillis();
        // loud at once when it starts; then at most once a minute, however often the probe is refused
        logHalt(nowMs, first);
    }

    /** Repeats the halt's log line at most once a minute. */
    public void logHalt(long nowMs, boolean force) {
        if (halted && (force || nowMs - lastHaltLog >= HALT_LOG_INTERVAL.toMillis())) {
            lastHaltLog = nowMs;
            LOG.error("{}: HALTED for {} s: {}. Dispatch stopped, tickets kept (none dead-lettered; those with a fallback move to it); "
                            + "fix the key, model or quota — quotaflow probes the provider every {} s and resumes by itself.",
                    who, Math.max(0, (nowMs - haltedSince) / 1000), haltReason, settings.haltProbeInterval().toSeconds());
        }
    }

    private void resume(long nowMs) {
        if (halted) {
            halted = false;
            haltProbeInFlight = false;
            // the end of a halt needs no one: INFO (the halt itself was an ERROR)
            LOG.info("{}: the provider accepts calls again after {} s; dispatch resumed", who, (nowMs - haltedSince) / 1000);
        }
    }

    public boolean halted() {
        return halted;
    }

    public String haltReason() {
        return haltReason;
    }

    /** True unless the breaker is closed (an outage is suspected). */
    public boolean circuitOpen() {
        CircuitBreaker.State s = breaker.getState();
        return s == CircuitBreaker.State.OPEN || s == CircuitBreaker.State.HALF_OPEN || s == CircuitBreaker.State.FORCED_OPEN;
    }

    /**
     * When the scope may serve again (epoch ms): now when nothing holds it back, when the open circuit's
     * wait ends (a trial call may then go out), {@link Long#MAX_VALUE} while halted (an operator must act).
     */
    public long resumesAt(long nowMs) {
        if (halted) {
            return Long.MAX_VALUE;
        }
        return breaker.getState() == CircuitBreaker.State.OPEN ? Math.max(nowMs, openUntil) : nowMs;
    }

    /**
     * While halted, when the next halt probe may go out (epoch ms): {@code nowMs} while one is in flight (its
     * answer may end the halt at any moment), else its due time; the scope serves again at the earliest when
     * that probe is accepted. {@code nowMs} when not halted.
     */
    public long nextHaltProbeAt(long nowMs) {
        return halted && !haltProbeInFlight ? Math.max(nowMs, nextHaltProbeAt) : nowMs;
    }

    public String circuitState() {
        return breaker.getState().name();
    }

    /** A clock the stream task moves. */
    private static final class TaskClock extends Clock {
        volatile long millis;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }
    }
}
