package io.quotaflow.dev;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.quotaflow.testkit.EmbeddedKafkaBroker;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import io.quotaflow.cli.ExitCodes;
import io.quotaflow.cli.GracefulStop;

/**
 * {@code quotaflow broker}: runs a single-node Kafka broker (KRaft, broker and controller in one
 * process) for local development until Ctrl+C or SIGTERM.
 */
@Command(
        name = "broker",
        usageHelpAutoWidth = true,
        header = "Run a local single-node Kafka broker (KRaft) until stopped.",
        descriptionHeading = "%n",
        optionListHeading = "%nOptions:%n",
        description = {
                "Starts an Apache Kafka broker and its KRaft controller in this process,",
                "listening on localhost only, with every replication factor set to 1.",
                "Transactions work, so the pipeline's exactly-once processing does too.",
                "Stop it with Ctrl+C (or SIGTERM); it shuts down cleanly.",
                "",
                "Without --dir the data lives in a temporary directory deleted on exit.",
                "With --dir the directory is formatted on first use and reused afterwards,",
                "so topics and records survive a restart; give it a directory of its own.",
                "",
                "Topics are not created automatically: run `quotaflow topics apply",
                "--bootstrap-servers localhost:PORT` (the pipeline also applies them).",
                "",
                "For development and tests only: no security, no replication.",
                "",
                "Flags only: --config and QUOTAFLOW_* variables are not read (none of the",
                "configuration keys is a broker setting)."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  quotaflow broker",
                "  quotaflow broker --port 19092 --dir ./data/kafka"},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:stopped cleanly (Ctrl+C / SIGTERM)",
                "1:the broker could not start (port in use, unusable directory, ...)",
                "2:usage error (bad option, --port out of range)"})
public class BrokerCommand implements Callable<Integer> {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "9092",
            description = "Client port on localhost (default: ${DEFAULT-VALUE}); 0 picks a free port."
                    + " The controller listens on another free port.")
    int port;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Data directory, kept across restarts (default: a temporary directory,"
                    + " deleted on exit).")
    Path dir;

    @Spec
    CommandSpec spec;

    /** Where the shutdown hook goes (tests run it themselves). */
    GracefulStop.Hooks hooks = GracefulStop.Hooks.RUNTIME;

    private final CountDownLatch stopRequested = new CountDownLatch(1);

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (port < 0 || port > 65535) {
            err.println("--port must be between 0 and 65535, was " + port);
            return ExitCodes.USAGE;
        }

        EmbeddedKafkaBroker broker;
        try {
            broker = EmbeddedKafkaBroker.start(port, dir);
        } catch (RuntimeException e) {
            err.println("Cannot start the Kafka broker: " + rootMessage(e));
            return ExitCodes.FAILURE;
        }

        // Ctrl+C / SIGTERM only ask the main thread to stop, so that it closes the broker and the
        // command returns 0. The shutdown hook covers any other way the JVM is brought down.
        try (GracefulStop stop = GracefulStop.install("broker", stopRequested::countDown, Duration.ofSeconds(60), hooks)) {
            trapSignal("INT");
            trapSignal("TERM");
            out.println("Kafka broker ready at " + broker.bootstrapServers()
                    + " (KRaft, single node). Press Ctrl+C to stop.");
            out.flush();
            try {
                stopRequested.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.println("Stopping the Kafka broker...");
            out.flush();
            broker.close();
        }
        out.println("Kafka broker stopped.");
        out.flush();
        return ExitCodes.OK;
    }

    /** Asks a running {@link #call()} to stop the broker and return (as Ctrl+C does). */
    public void stop() {
        stopRequested.countDown();
    }

    @SuppressWarnings("sunapi")
    private void trapSignal(String name) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
                if (stopRequested.getCount() == 0) {
                    // a second Ctrl+C while stopping: give up on the clean shutdown
                    Runtime.getRuntime().halt(128 + signal.getNumber());
                }
                stopRequested.countDown();
            });
        } catch (IllegalArgumentException | LinkageError e) {
            // signal not supported here: the shutdown hook still closes the broker
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t + ")";
    }
}
