package dev.muster.cli;

import com.google.inject.Guice;
import com.google.inject.Injector;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import java.lang.management.ManagementFactory;
import java.time.Clock;

/** Like bench, but also reports the main thread's CPU time, which another engineer's builds disturb less. */
public final class CpuBench {
    public static void main(String[] args) {
        Injector injector = Guice.createInjector(new EngineModule(), new CliModule());
        SchedulerConfigLoader loader = injector.getInstance(SchedulerConfigLoader.class);
        SessionConfig config = loader.parse("bench", DefaultSchedulerConfig.text().replaceFirst("(?m)^actions:.*$", "actions: \"allocate\""));
        int nodes = Integer.parseInt(args[0]), pods = Integer.parseInt(args[1]), gang = Integer.parseInt(args[2]);
        ClusterSnapshot snapshot = SyntheticCluster.build(nodes, pods, gang, 4);
        int runs = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        for (int run = 0; run < runs; run++) {
        var bean = ManagementFactory.getThreadMXBean();
        long cpu = bean.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        SessionResult result = Session.run(snapshot, config, Clock.systemUTC());
        double wall = (System.nanoTime() - start) / 1e9;
        double cpuSeconds = (bean.getCurrentThreadCpuTime() - cpu) / 1e9;
        System.out.printf("bound=%d wall=%.3fs cpu=%.3fs pods/s(wall)=%d pods/s(cpu)=%d%n", result.binds().size(), wall, cpuSeconds,
                Math.round(result.binds().size() / wall), Math.round(result.binds().size() / cpuSeconds));
        }
    }
}
