[@'a\nb', @"c\td", @'it''s', @"say ""hi"""]
