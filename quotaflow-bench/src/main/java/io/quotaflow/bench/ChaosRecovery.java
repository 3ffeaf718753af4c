package io.quotaflow.bench;

import org.apache.kafka.common.TopicPartition;

import java.util.Map;

/** The recovery from one kill, while it is under way. */
final class ChaosRecovery {
    final ChaosPlan.Kill kill;
    final long atMs;
    final long accountedAtKill;
    final long publishedAtKill;
    long killedAt;
    long restartDueAt;
    Long restartedAt;
    Long readyAt;
    Long firstResultAt;
    int restarts;
    Map<TopicPartition, Long> snapshot = Map.of();
    private final ChaosChildren children;
    private final ChaosRunner.Listener listener;

    ChaosRecovery(ChaosPlan.Kill kill, long atMs, long accountedAtKill, long publishedAtKill, ChaosChildren children,
                  ChaosRunner.Listener listener) {
        this.kill = kill;
        this.children = children;
        this.listener = listener;
        this.atMs = atMs;
        this.accountedAtKill = accountedAtKill;
        this.publishedAtKill = publishedAtKill;
    }

    void restarted(long at) {
        if (restartedAt == null) {
            restartedAt = at;
        }
        restarts++;
    }

    void advance(long now, ChaosTracker tracker) {
        if (kill.target() == ChaosPlan.Target.BROKER) {
            if (restartedAt == null && now >= restartDueAt) {
                children.startBroker();
                restarted(System.currentTimeMillis());
                // new = committed after the kill (the pipeline stayed up: it may have classified during the outage)
                tracker.watch(snapshot, restartedAt, Long.MIN_VALUE);
                listener.phase("kill #" + kill.index() + ": broker restarted as pid " + children.broker().pid() + " on port "
                        + children.brokerPort() + " (" + children.broker().log().getFileName() + ")");
            } else if (restartedAt != null && readyAt == null && children.broker().logContains(ChaosChildren.BROKER_READY)) {
                readyAt = System.currentTimeMillis();
            }
        } else if (readyAt == null && "RUNNING".equals(children.pollStatusIfDue(now, 150))) {
            readyAt = System.currentTimeMillis();
        }
        if (restartedAt != null && firstResultAt == null && tracker.firstNewAt() != null) {
            firstResultAt = tracker.firstNewAt();
        }
    }

    /** Recovered: ready and a new result seen (or a new result, with readiness not seen 30 s on, or the run over). */
    boolean complete(long now, boolean allAccounted) {
        if (firstResultAt == null) {
            return false;
        }
        return readyAt != null || allAccounted || now - firstResultAt > 30_000;
    }

    String waitingFor(long now) {
        if (restartedAt == null) {
            return kill.target().label() + " down, restart in " + ChaosResult.seconds(Math.max(0, restartDueAt - now));
        }
        String what = kill.target() == ChaosPlan.Target.PIPELINE ? "streams " + children.lastStreamsState()
                : readyAt == null ? "broker starting" : "broker ready";
        return "kill #" + kill.index() + " " + kill.target().label() + " restarted " + ChaosResult.seconds(now - restartedAt)
                + " ago, " + what + (firstResultAt == null ? ", no new result yet" : "");
    }

    ChaosResult.Disruption toDisruption() {
        Long ready = restartedAt == null || readyAt == null ? null : readyAt - restartedAt;
        Long first = restartedAt == null || firstResultAt == null ? null : firstResultAt - restartedAt;
        long down = restartedAt == null ? System.currentTimeMillis() - killedAt : restartedAt - killedAt;
        return new ChaosResult.Disruption(kill.index(), kill.target(), kill.atShare(), atMs, accountedAtKill, publishedAtKill, down,
                ready, first, restarts);
    }
}
