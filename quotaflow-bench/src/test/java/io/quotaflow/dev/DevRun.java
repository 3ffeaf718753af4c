package io.quotaflow.dev;

import io.quotaflow.cli.QuotaflowCommand;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/** One run of the developer command line in-process, with its exit code and captured output. */
record DevRun(int exitCode, String out, String err) {

    /** Runs {@code args} with the process's environment. */
    static DevRun quotaflow(String... args) {
        return quotaflow(System.getenv(), args);
    }

    /** Runs {@code args} with {@code env} as the settings' environment. */
    static DevRun quotaflow(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), env,
                QuotaflowDevCommand.commands(), QuotaflowDevCommand.VARIABLES, args);
        return new DevRun(code, out.toString(), err.toString());
    }
}
