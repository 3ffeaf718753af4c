package io.quotaflow.bench;

import io.quotaflow.records.Priority;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorStats;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.testkit.OutcomeCounter;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One measured run of {@link BenchmarkRunner} on running instances: publishes the tickets ((j): the
 * backlog, then the interactive ones), waits until every one is classified or dead-lettered, and turns
 * what the counter and the simulator saw into the scenario's result.
 */
final class RunMeasurement {

    private final BenchmarkRunner.Listener listener;
    private final BenchmarkRunner.Options options;

    RunMeasurement(BenchmarkRunner.Listener listener, BenchmarkRunner.Options options) {
        this.listener = listener;
        this.options = options;
    }

    ScenarioResult publishAndMeasure(Scenario scenario, List<GeneratedTicket> tickets, EmbeddedKafkaBroker broker,
                                     ProviderSimulator sim, List<BenchInstance> pipelines) throws InterruptedException {
        boolean interactive = scenario.kind() == Scenario.Kind.INTERACTIVE;
        // (j): the bulk backlog first, then the interactive tickets one by one
        int backlog = interactive ? scenario.tickets() : tickets.size();
        List<GeneratedTicket> later = tickets.subList(backlog, tickets.size());
        listener.phase(scenario, "publishing " + backlog + " tickets" + (interactive ? " to " + Priority.BULK.topic() : ""));
        CpuUse cpuAtStart = CpuUse.now();
        List<Duration> ownCpuAtStart = pipelines.stream().map(BenchInstance::ownCpu).toList();
        List<JvmThreadsCpu> ownThreadsAtStart = pipelines.stream().map(BenchInstance::ownThreads).toList();
        long start = System.currentTimeMillis();
        try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of())) {
            InteractiveFeed.publish(publisher, tickets.subList(0, backlog), interactive ? Optional.of(Priority.BULK) : Optional.empty());
            long lastPublish = System.currentTimeMillis();
            long expected = tickets.size();
            listener.phase(scenario, "published in " + (lastPublish - start) + " ms; classifying"
                    + InteractiveFeed.describe(later, scenario.interactiveFrom()));
            InteractiveFeed feed = new InteractiveFeed(later, publisher);
            long feedFrom = Math.max(1, (long) Math.ceil(backlog * scenario.interactiveFrom()));
            try (OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of());
                 LaneWatch lane = LaneWatch.forScenario(scenario, broker.bootstrapServers(), BenchmarkRunner.APPLICATION_ID)) {
                long deadline = start + options.timeout().toMillis();
                long nextTick = start;
                long lastAnswer;
                while (true) {
                    counter.poll(Duration.ofMillis(100));
                    long now = System.currentTimeMillis();
                    if (feed.publishIfDue(now, counter.classified() >= feedFrom)) {
                        lastPublish = System.currentTimeMillis();
                    }
                    long done = (long) counter.classified() + counter.deadLettered();
                    if (done >= expected) {
                        lastAnswer = now;
                        break;
                    }
                    if (now >= nextTick) {
                        progress(scenario, now - start, expected, counter, sim.stats());
                        nextTick = now + options.progressInterval().toMillis();
                        requireRunning(pipelines, done, expected);
                    }
                    if (now > deadline) {
                        throw new IllegalStateException("timed out after " + options.timeout().toSeconds() + " s with " + done
                                + " of " + expected + " tickets accounted for");
                    }
                }
                Map<CpuUse.Group, Long> cpu = CpuUse.now().since(cpuAtStart, BenchmarkRunner.APPLICATION_ID);
                long ownCpuNanos = RunCpu.ownCpuSince(pipelines, ownCpuAtStart);
                Map<JvmThreadsCpu.Group, Long> ownThreads = RunCpu.ownThreadsSince(pipelines, ownThreadsAtStart);
                progress(scenario, lastAnswer - start, expected, counter, sim.stats());
                awaitLateDuplicates(counter);
                return RunCpu.withPipelineCpu(scenario, RunCpu.withOwnCpu(RunCpu.withCpu(scenario, MeasuredRun.of(scenario, tickets, counter, sim.stats(),
                        new RunTiming(start, lastPublish, lastAnswer, feed.publishedAt(), LaneWatch.all(lane))), cpu, expected), ownCpuNanos,
                        expected, lastAnswer - start, JvmThreadsCpu.describe(ownThreads, expected)), cpu, ownCpuNanos, expected);
            }
        }
    }

    private void progress(Scenario scenario, long elapsedMs, long expected, OutcomeCounter counter, SimulatorStats s) {
        listener.progress(scenario, new BenchmarkRunner.Progress(elapsedMs, expected, counter.classified(), counter.deadLettered(),
                s.totalRequests(), s.http429(), s.tokensAdmitted()));
    }

    /** Anything arriving late would be a duplicate: gives it a moment to show up. */
    private static void awaitLateDuplicates(OutcomeCounter counter) {
        long quietUntil = System.currentTimeMillis() + 1_500;
        while (System.currentTimeMillis() < quietUntil) {
            counter.poll(Duration.ofMillis(250));
        }
    }

    private static void requireRunning(List<BenchInstance> pipelines, long done, long expected) {
        for (BenchInstance p : pipelines) {
            String stopped = p.stopped();
            if (stopped != null) {
                throw new IllegalStateException("a pipeline instance stopped (" + stopped + ") with " + done + " of "
                        + expected + " tickets accounted for");
            }
        }
    }
}
