"héllo wörld 中文 😀"
