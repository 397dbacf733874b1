package dev.muster.cli;

import com.google.inject.Guice;
import com.google.inject.Injector;
import dev.muster.engine.EngineModule;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code muster} command. */
@Command(
        name = "muster",
        mixinStandardHelpOptions = true,
        version = "muster 0.1.0",
        description = "A batch scheduler for Kubernetes: gangs, queues, job graphs, topology.",
        subcommands = {DemoCommand.class, UpCommand.class, RunCommand.class, WhatIfCommand.class, SimulateCommand.class, BenchCommand.class,
            CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        if (args.length > 0 && (args[0].equals("demo") || args[0].equals("up"))) {
            // the narration and the usage text are the output; the embedded server's chatter is not (-D... overrides)
            quietLogging(args[0].equals("demo") ? "error" : "info");
        }
        System.exit(execute(args));
    }

    private static void quietLogging(String level) {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", level);
        }
        // fabric8 warns of every v1beta1/v1alpha1 kind it watches; Volcano's kinds are all of those
        System.setProperty("org.slf4j.simpleLogger.log.io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils", "error");
    }

    /** Runs the command line and returns the exit code. */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /**
     * Runs the command line with its output and error text to these writers instead of this JVM's stdout and stderr
     * (as a test that runs {@code muster up} on a thread keeps what it printed), and returns the exit code.
     */
    static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = commandLine();
        commandLine.setOut(out);
        commandLine.setErr(err);
        return commandLine.execute(args);
    }

    private static CommandLine commandLine() {
        Injector injector = Guice.createInjector(new EngineModule(), new CliModule());
        CommandLine commandLine = new CommandLine(Main.class, new GuiceFactory(injector));
        commandLine.setExecutionExceptionHandler((exception, line, parseResult) -> {
            line.getErr().println("muster: " + exception.getMessage());
            return ExitCodes.FAILURE;
        });
        return commandLine;
    }
}
