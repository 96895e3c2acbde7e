package dotb

func Render() {}

func Only() {}
