std.base64([256])
