package io.quotaflow.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

import picocli.CommandLine;

/** The outcome of running a picocli command in-process with captured output. */
record CommandRun(int exitCode, String out, String err) {

    static CommandRun of(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = new CommandLine(command)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new CommandRun(exitCode, normalize(out), normalize(err));
    }

    /** Runs {@code quotaflow args} through the production entry point, with {@code env} as its environment. */
    static CommandRun execute(java.util.Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), env, args);
        return new CommandRun(exitCode, normalize(out), normalize(err));
    }

    private static String normalize(StringWriter writer) {
        return writer.toString().replace(System.lineSeparator(), "\n");
    }
}
