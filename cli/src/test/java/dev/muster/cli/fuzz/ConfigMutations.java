package dev.muster.cli.fuzz;

import com.google.common.collect.ImmutableSet;
import dev.muster.engine.config.DefaultSchedulerConfig;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Mistakes in the scheduler configuration: a misspelt plugin or action, arguments of the wrong shape
 * (of a listed action or not), a cut file, a byte that is not UTF-8, deep nesting, an alias. Such a
 * configuration may still be valid; when it is not, {@code what-if} must exit 2 naming the file.
 */
final class ConfigMutations {
    private static final List<String> APPENDED = List.of(
            "configurations: [{name: allocate, arguments: x}]\n",
            "configurations: [{name: preempt, arguments: {minCandidateNodesPercentag: 5}}]\n",
            "configurations: [{name: backfill, arguments: [1, 2]}]\n",
            "configurations: [{name: allocat}]\n",
            "extra: &anchor {a: 1}\nmore: *anchor\n",
            "deep: " + "[".repeat(1200) + "]".repeat(1200) + "\n",
            "tiers: [{plugins: [{name: gnag}]}]\n",
            "actions: \"enqueue, allocate, allocate\"\n",
            "metrics: {address: 1}\n");

    private ConfigMutations() {}

    static FuzzInput mutate(FuzzBase base, Random random) {
        byte[] config = base.config().orElseGet(() -> DefaultSchedulerConfig.text().getBytes(StandardCharsets.UTF_8));
        byte[] mutated;
        String mutation;
        switch (random.nextInt(4)) {
            case 0 -> {
                int cut = random.nextInt(config.length);
                mutated = Arrays.copyOf(config, cut);
                mutation = "configuration cut at byte " + cut;
            }
            case 1 -> {
                mutated = config.clone();
                int at = random.nextInt(mutated.length);
                mutated[at] = (byte) 0xE9;
                mutation = "configuration with a byte that is not UTF-8 at " + at;
            }
            case 2 -> {
                String text = new String(config, StandardCharsets.UTF_8);
                String[] names = {"gang", "drf", "allocate", "enqueue", "predicates", "proportion", "binpack", "priority"};
                String name = names[random.nextInt(names.length)];
                mutated = text.replaceFirst(name, name.substring(1)).getBytes(StandardCharsets.UTF_8);
                mutation = "configuration with '" + name + "' misspelt";
            }
            default -> {
                String appended = APPENDED.get(random.nextInt(APPENDED.size()));
                mutated = (new String(config, StandardCharsets.UTF_8) + appended).getBytes(StandardCharsets.UTF_8);
                mutation = "configuration with " + appended.strip().replaceAll("\\[{5,}.*", "[[[...");
            }
        }
        byte[] cluster = FuzzBase.join(base.documents()).getBytes(StandardCharsets.UTF_8);
        return new FuzzInput(base.name() + ": " + mutation, cluster, Optional.of(mutated), ImmutableSet.of(), Integer.MAX_VALUE, false);
    }
}
