std.format("100%% of %d%%, %5%|", [3])
